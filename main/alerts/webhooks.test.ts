import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { SECOND } from '../../shared/durations.ts';
import { inputProblems } from '../../shared/errors.ts';
import { settingsUpdateSchema } from '../../shared/settings.ts';
import type { WebhookConfig } from '../../shared/webhooks.ts';
import { errorThenSleepAndWake, harness } from '../testing/engine-harness.ts';
import type { AlertEvent } from './payloads.ts';
import { WebhookDispatcher } from './webhooks.ts';

interface Received {
  body: Record<string, unknown>;
  headers: IncomingMessage['headers'];
}

/** A local receiver answering with the statuses given, in order (the last one forever after). */
async function receiver(statuses: number[], delayMs = 0) {
  const received: Received[] = [];
  let calls = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ body: JSON.parse(Buffer.concat(chunks).toString()), headers: req.headers });
      const status = statuses[Math.min(calls++, statuses.length - 1)]!;
      setTimeout(() => {
        res.writeHead(status, status === 429 ? { 'retry-after': '0' } : {});
        res.end();
      }, delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hooks/T000/B000/secret-part`, received, calls: () => calls };
}

const servers: Server[] = [];
const dispatchers: WebhookDispatcher[] = [];
afterEach(async () => {
  for (const d of dispatchers.splice(0)) d.close();
  await Promise.all(servers.splice(0).map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
});

function dispatcher(
  webhooks: WebhookConfig[],
  options: Partial<ConstructorParameters<typeof WebhookDispatcher>[0]> = {},
) {
  const d = new WebhookDispatcher({
    webhooks: () => webhooks,
    baseDelayMs: 10,
    maxDelayMs: 40,
    timeoutMs: 2 * SECOND,
    ...options,
  });
  dispatchers.push(d);
  return d;
}

const errorEvent: AlertEvent = {
  event: 'error',
  appId: 'app_0a1b2c3d',
  appName: 'billing-preview',
  ownerId: 'orga_acme',
  at: Date.UTC(2026, 0, 5, 9),
  state: 'Error',
  cause: 'the app failed to start on clever cloud',
  reason: 'the app failed to start on clever cloud',
  actor: 'reaper',
  durationMs: null,
};

async function eventually(check: () => boolean, limitMs = 5 * SECOND) {
  const end = Date.now() + limitMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('the condition never held');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('team alert webhooks', () => {
  it('retry a failing receiver with backoff until it answers, then report the delivery', async () => {
    const r = await receiver([500, 503, 200]);
    const outcomes: string[] = [];
    const d = dispatcher([{ url: r.url, format: 'json', events: ['error'] }], {
      onOutcome: (o) => outcomes.push(o),
    });
    d.notify(errorEvent);
    await eventually(() => d.status()[0]!.delivered === 1);
    expect(r.calls()).toBe(3);
    expect(outcomes).toEqual(['retried', 'retried', 'delivered']);
    const status = d.status()[0]!;
    expect(status).toMatchObject({
      url: r.url,
      pending: 0,
      delivered: 1,
      failed: 0,
      lastError: 'HTTP 503 Service Unavailable',
    });
    expect(status.lastSuccessAt).not.toBeNull();
    expect(r.received[2]!.body).toEqual({
      source: 'clever-reaper',
      version: 1,
      event: 'error',
      at: '2026-01-05T09:00:00.000Z',
      app: { id: 'app_0a1b2c3d', name: 'billing-preview', ownerId: 'orga_acme' },
      state: 'Error',
      label: 'Error',
      cause: 'the app failed to start on clever cloud',
      reason: 'the app failed to start on clever cloud',
      actor: 'reaper',
      durationMs: null,
      text: 'billing-preview is in Error: the app failed to start on clever cloud',
    });
    expect(r.received[0]!.headers['content-type']).toBe('application/json');
  });

  it('send Slack-compatible bodies: text as the fallback, and blocks', async () => {
    const r = await receiver([200]);
    const d = dispatcher([{ url: r.url, format: 'slack', events: ['error'] }]);
    d.notify({ ...errorEvent, appName: 'a <b> & c' });
    await eventually(() => r.received.length === 1);
    const body = r.received[0]!.body as {
      text: string;
      blocks: { type: string; text?: { type: string; text: string } }[];
    };
    expect(Object.keys(body).sort()).toEqual(['blocks', 'text']);
    expect(body.text).toBe(
      ':red_circle: a &lt;b&gt; &amp; c is in Error: the app failed to start on clever cloud',
    );
    expect(body.blocks[0]).toEqual({
      type: 'section',
      text: {
        type: 'mrkdwn',
        text: ':red_circle: *a &lt;b&gt; &amp; c* is in *Error*: the app failed to start on clever cloud',
      },
    });
    expect(body.blocks[1]!.type).toBe('context');
  });

  it('give up after the last attempt, and do not retry a 4xx other than 408 and 429', async () => {
    const down = await receiver([500]);
    const gone = await receiver([404]);
    const d = dispatcher(
      [
        { url: down.url, format: 'json', events: ['error'] },
        { url: gone.url, format: 'json', events: ['error'] },
      ],
      { maxAttempts: 3 },
    );
    d.notify(errorEvent);
    await eventually(() => d.status().every((s) => s.failed === 1));
    expect(down.calls()).toBe(3);
    expect(gone.calls()).toBe(1);
    expect(d.status().map((s) => s.pending)).toEqual([0, 0]);
  });

  it('time out an attempt that gets no answer, and retry it', async () => {
    const slow = await receiver([200], 300);
    const d = dispatcher([{ url: slow.url, format: 'json', events: ['error'] }], {
      timeoutMs: 50,
      maxAttempts: 2,
    });
    d.notify(errorEvent);
    await eventually(() => d.status()[0]!.failed === 1);
    expect(d.status()[0]!.lastError).toBe('no answer within 50 ms');
  });

  it('only send the events each webhook asked for, and never block the caller', async () => {
    const errorsOnly = await receiver([200]);
    const all = await receiver([200]);
    const d = dispatcher([
      { url: errorsOnly.url, format: 'json', events: ['error'] },
      { url: all.url, format: 'json', events: ['error', 'sleep', 'wake'] },
    ]);
    const started = performance.now();
    d.notify({ ...errorEvent, event: 'sleep', state: 'Down', cause: null });
    // notify only queues: the receiver has not been called yet when it returns.
    expect(all.calls()).toBe(0);
    expect(performance.now() - started).toBeLessThan(1000);
    await eventually(() => all.received.length === 1);
    expect(errorsOnly.received).toHaveLength(0);
  });

  it('keep at most maxQueue payloads per receiver, dropping the oldest', async () => {
    const r = await receiver([500]);
    const d = dispatcher([{ url: r.url, format: 'json', events: ['error'] }], {
      maxQueue: 3,
      baseDelayMs: 10_000,
      maxDelayMs: 10_000,
    });
    for (let n = 0; n < 5; n++) d.notify({ ...errorEvent, appName: `app-${n}` });
    const status = d.status()[0]!;
    expect(status.pending).toBe(3);
    expect(status.failed).toBe(2);
    expect(status.lastError).toMatch(/oldest was dropped/);
  });

  it('answer "Send a test" with one attempt, and show it in the status', async () => {
    const r = await receiver([200]);
    const d = dispatcher([{ url: r.url, format: 'slack', events: ['error'] }]);
    const result = await d.test({ url: r.url, format: 'slack' }, Date.UTC(2026, 0, 5, 9));
    expect(result).toMatchObject({ ok: true, status: 200, error: null });
    expect(r.received[0]!.body.text).toMatch(/test/);
    const refused = await receiver([403]);
    expect(await d.test({ url: refused.url, format: 'json' }, 0)).toMatchObject({
      ok: false,
      status: 403,
      error: 'HTTP 403 Forbidden',
    });
    const closed = await d.test({ url: 'http://127.0.0.1:9/', format: 'json' }, 0);
    expect(closed.ok).toBe(false);
    expect(closed.error).toMatch(/cannot be reached/);
    expect(d.status()[0]!.lastSuccessAt).not.toBeNull();
  });

  it('follow an engine: an app entering Error, going to sleep and waking up, with no credential in any payload', async () => {
    const r = await receiver([200]);
    const h = harness({
      sim: { deployDurationMs: 30 * SECOND, stopDurationMs: 5 * SECOND, failAfterMs: 10 * SECOND },
    });
    const d = dispatcher([{ url: r.url, format: 'json', events: ['error', 'sleep', 'wake'] }]);
    d.watch(h.engine);
    await errorThenSleepAndWake(h);
    await h.engine.stop();
    await eventually(() => r.received.length === 3);
    const events = r.received.map((x) => x.body);
    expect(events.map((e) => `${e.event} ${(e.app as { name: string }).name}`)).toEqual([
      'error billing-preview',
      'sleep idle-review',
      'wake idle-review',
    ]);
    expect(events[1]!.reason).toMatch(/^no traffic for 1 h/);
    expect(events[2]!.durationMs).toBeGreaterThan(0);
    expect(events[2]!.actor).toBe('operator');
    const all = JSON.stringify(events);
    expect(all).not.toMatch(/token|secret|authorization|oauth/i);
  });

  it('are validated settings: http(s) URLs only, known formats and events, no user:password', () => {
    const ok = settingsUpdateSchema.safeParse({
      webhooks: [{ url: 'https://hooks.example.com/x', format: 'slack', events: ['wake', 'error'] }],
    });
    expect(ok.success && ok.data.webhooks?.[0]?.events).toEqual(['error', 'wake']);
    // As the API and the dashboard say them (shared/validation.ts), never the library's words.
    const problems = (value: unknown) =>
      inputProblems(settingsUpdateSchema, { webhooks: [value] }).map((p) => `${p.field}: ${p.message}`);
    expect(problems({ url: 'ftp://example.com', format: 'json', events: ['error'] })).toEqual([
      'webhooks.0.url: Webhook 1 URL: “ftp://example.com” is not an http:// or https:// URL.',
    ]);
    expect(problems({ url: 'https://user:pw@example.com', format: 'json', events: ['error'] })).toEqual([
      'webhooks.0.url: Webhook 1 URL: remove the user name and password from the URL.',
    ]);
    expect(problems({ url: 'https://example.com', format: 'xml', events: [] })).toEqual([
      'webhooks.0.format: Webhook 1 format: “xml” is not one of these: “json, slack”.',
      'webhooks.0.events: Webhook 1 events: choose at least one event.',
    ]);
  });
});
