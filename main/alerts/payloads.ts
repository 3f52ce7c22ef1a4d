/**
 * What a webhook receives. Built from the app's name, ids, state and the history's reason only: never
 * a Clever Cloud token, secret, or anything from the credentials.
 *
 * - json: `{source, version, event, at, app: {id, name, ownerId}, state, label, cause, reason, actor,
 *   durationMs, text}`;
 * - slack: a Slack-compatible incoming-webhook body, `{text, blocks}` (also understood by Mattermost
 *   and Rocket.Chat incoming webhooks): `text` is the notification's fallback.
 */
import { type Actor, CONSOLE_LABELS, type ReaperState } from '../../shared/domain.ts';
import { formatDuration } from '../../shared/durations.ts';
import type { WebhookEvent, WebhookFormat } from '../../shared/webhooks.ts';

export interface AlertEvent {
  event: WebhookEvent | 'test';
  appId: string;
  appName: string;
  ownerId: string;
  /** Engine clock, epoch ms. */
  at: number;
  state: ReaperState;
  /** Entering Error: the cause, in the lifecycle spec's words. */
  cause: string | null;
  /** Why: the history's reason (the stop's idle time, the request that woke the app, ...). */
  reason: string;
  actor: Actor;
  /** Sleep: how long the stop took; wake: how long the start took. */
  durationMs: number | null;
}

export const PAYLOAD_VERSION = 1;

export function summary(e: AlertEvent): string {
  switch (e.event) {
    case 'error':
      return `${e.appName} is in Error: ${e.cause ?? e.reason}`;
    case 'sleep':
      return `${e.appName} went to sleep (${e.reason})`;
    case 'wake':
      return `${e.appName} is up again${e.durationMs !== null ? ` after ${formatDuration(e.durationMs)}` : ''} (${e.reason})`;
    case 'test':
      return 'Clever Reaper test: this webhook receives the team alerts';
  }
}

export function jsonPayload(e: AlertEvent): Record<string, unknown> {
  return {
    source: 'clever-reaper',
    version: PAYLOAD_VERSION,
    event: e.event,
    at: new Date(e.at).toISOString(),
    app: { id: e.appId, name: e.appName, ownerId: e.ownerId },
    state: e.state,
    label: CONSOLE_LABELS[e.state],
    cause: e.cause,
    reason: e.reason,
    actor: e.actor,
    durationMs: e.durationMs,
    text: summary(e),
  };
}

/** Slack's mrkdwn: &, < and > are the only characters to escape. */
export function slackEscape(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

const EMOJI: Record<AlertEvent['event'], string> = {
  error: ':red_circle:',
  sleep: ':zzz:',
  wake: ':sunrise:',
  test: ':white_check_mark:',
};

export function slackPayload(e: AlertEvent): { text: string; blocks: unknown[] } {
  const name = `*${slackEscape(e.appName)}*`;
  const line =
    e.event === 'error'
      ? `${name} is in *Error*: ${slackEscape(e.cause ?? e.reason)}`
      : e.event === 'sleep'
        ? `${name} went to sleep: ${slackEscape(e.reason)}`
        : e.event === 'wake'
          ? `${name} is up again${e.durationMs !== null ? ` after ${formatDuration(e.durationMs)}` : ''}: ${slackEscape(e.reason)}`
          : 'This webhook receives the team alerts of Clever Reaper.';
  const context =
    e.event === 'test'
      ? `Clever Reaper · test sent ${new Date(e.at).toISOString()}`
      : `Clever Reaper · \`${slackEscape(e.appId)}\` · ${slackEscape(e.ownerId)} · ${new Date(e.at).toISOString()}${
          e.event === 'error' ? ' · the reaper leaves the app alone until it is reset' : ''
        }`;
  return {
    text: `${EMOJI[e.event]} ${slackEscape(summary(e))}`,
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text: `${EMOJI[e.event]} ${line}` } },
      { type: 'context', elements: [{ type: 'mrkdwn', text: context }] },
    ],
  };
}

export function payloadBody(e: AlertEvent, format: WebhookFormat): string {
  return JSON.stringify(format === 'slack' ? slackPayload(e) : jsonPayload(e));
}
