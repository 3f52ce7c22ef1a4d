/**
 * Team alerts: the webhooks the reaper calls when an app enters Error (and, when asked, when an app
 * goes to sleep or wakes up). Pure: the schema of a webhook in the settings, and what the dashboard
 * shows of deliveries. Delivering is main/alerts/webhooks.ts.
 */
import { z } from 'zod';
import { noRepeats, says } from './validation.ts';

/** What a webhook can be told about. "error" is the one most teams want: a failure, not routine. */
export const WEBHOOK_EVENTS = ['error', 'sleep', 'wake'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** json: the reaper's own JSON body; slack: a Slack-compatible incoming-webhook body ({text, blocks}). */
export const WEBHOOK_FORMATS = ['json', 'slack'] as const;
export type WebhookFormat = (typeof WEBHOOK_FORMATS)[number];

export interface WebhookConfig {
  url: string;
  format: WebhookFormat;
  events: WebhookEvent[];
}

export const MAX_WEBHOOKS = 10;

/** http(s) only, no credentials in the URL's user-info part (they would be shown and logged). */
export const webhookUrlSchema = z
  .string()
  .trim()
  .max(2000)
  .refine((text) => {
    try {
      const url = new URL(text);
      return url.protocol === 'http:' || url.protocol === 'https:';
    } catch {
      return false;
    }
  }, says('webhookUrl'))
  .refine((text) => {
    try {
      const url = new URL(text);
      return url.username === '' && url.password === '';
    } catch {
      return true;
    }
  }, says('urlCredentials'));

export const webhookSchema = z
  .object({
    url: webhookUrlSchema,
    format: z.enum(WEBHOOK_FORMATS),
    events: z
      .array(z.enum(WEBHOOK_EVENTS))
      .min(1, says('eventsMissing'))
      .transform((events) => WEBHOOK_EVENTS.filter((e) => events.includes(e))),
  })
  .strict();

export const webhooksSchema = z
  .array(webhookSchema)
  .max(MAX_WEBHOOKS)
  .superRefine(noRepeats((w: { url: string }) => w.url));

/** How deliveries to one URL went, since the reaper started. */
export interface WebhookStatus {
  url: string;
  /** Payloads waiting (retried with backoff, or not sent yet). */
  pending: number;
  delivered: number;
  /** Payloads given up after the last retry, or dropped because too many were waiting. */
  failed: number;
  lastSuccessAt: number | null;
  lastFailureAt: number | null;
  /** What went wrong last ("HTTP 500", "timed out after 10 s", ...). */
  lastError: string | null;
}

/** The answer to "Send a test": one attempt, at once. */
export interface WebhookTestResult {
  ok: boolean;
  /** The HTTP status of the answer, when there was one. */
  status: number | null;
  error: string | null;
  durationMs: number;
}

/** The origin of a URL, for logs and messages: never its path, which may hold a secret (Slack's does). */
export function redactUrl(text: string): string {
  try {
    const url = new URL(text);
    return url.pathname === '/' && !url.search ? url.origin : `${url.origin}/…`;
  } catch {
    return 'an invalid URL';
  }
}
