import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppDetail, AppView } from '../../shared/api.ts';
import { MINUTE, SECOND } from '../../shared/durations.ts';
import { HISTORY_CSV_COLUMNS, type HistoryPage } from '../../shared/history.ts';
import type { SavingsReport } from '../../shared/savings.ts';
import { ManualClock } from '../engine/clocks.ts';
import { MONDAY_9AM } from '../testing/engine-harness.ts';
import { TEST_SERVER } from '../testing/test-server.ts';
import { type Headless, startHeadless } from './headless.ts';

const running: Headless[] = [];
const receivers: Server[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
  await Promise.all(receivers.splice(0).map((r) => new Promise<void>((resolve) => r.close(() => resolve()))));
});

async function serve() {
  const clock = new ManualClock(MONDAY_9AM);
  const server = await startHeadless({
    ...TEST_SERVER,
    demo: true,
    scenario: 'e2e',
    dataDir: mkdtempSync(join(tmpdir(), 'reaper-ops-')),
    demoClock: clock,
  });
  running.push(server);
  await clock.advance(5 * SECOND);
  const auth = `Bearer ${server.token.token}`;
  const raw = (method: string, path: string, body?: unknown, authorization = auth) =>
    fetch(`${server.url}${path}`, {
      method,
      headers: { authorization, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const call = async <T>(method: string, path: string, body?: unknown) => {
    const res = await raw(method, path, body);
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : null) as T };
  };
  const appId = async (name: string) =>
    (await call<AppView[]>('GET', '/api/apps')).body.find((a) => a.name === name)!.appId;
  return { server, clock, raw, call, appId };
}

describe('the admin API for history, savings, metrics and team alerts', () => {
  it('serves GET /metrics in the Prometheus text format, with the admin token only', async () => {
    const { raw } = await serve();
    const refused = await raw('GET', '/metrics', undefined, '');
    expect(refused.status).toBe(401);
    const res = await raw('GET', '/metrics');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = await res.text();
    expect(text).toMatch(/^# HELP clever_reaper_apps /m);
    expect(text).toMatch(/^clever_reaper_apps\{state="Error",label="Error"\} 1$/m);
    expect(text).toMatch(
      /^clever_reaper_clever_calls_total\{endpoint="GET \/v2\/organisations\/:XXX\/applications",outcome="ok"\} \d+$/m,
    );
    expect(text).toMatch(/^clever_reaper_info\{version="[^"]*",mode="demo"\} 1$/m);
  });

  it('pages the history across apps, and streams it as CSV or JSON with the same filters', async () => {
    const { call, raw } = await serve();
    const first = await call<HistoryPage>('GET', '/api/history?limit=3');
    expect(first.status).toBe(200);
    expect(first.body.entries).toHaveLength(3);
    const next = await call<HistoryPage>('GET', `/api/history?limit=3&cursor=${first.body.nextCursor}`);
    expect(next.body.entries[0]!.id).toBeLessThan(first.body.entries[2]!.id);
    expect(new Set(first.body.entries.map((e) => e.appName)).size).toBeGreaterThan(0);

    const csv = await raw('GET', '/api/history?format=csv&actor=operator');
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(csv.headers.get('content-disposition')).toMatch(
      /^attachment; filename="clever-reaper-history-2026-01-05\.csv"$/,
    );
    const lines = (await csv.text()).split('\r\n');
    expect(lines[0]).toBe(HISTORY_CSV_COLUMNS.join(','));
    expect(lines.slice(1, -1).every((l) => l.includes(',operator,'))).toBe(true);
    expect(lines.at(-1)).toBe('');

    const json = await raw('GET', '/api/history?format=json&kind=transition');
    const rows = (await json.json()) as { kind: string }[];
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.kind === 'transition')).toBe(true);
  });

  it('names the bad field of a history query or export', async () => {
    const { call } = await serve();
    const bad = await call<{ error: { problems: { field: string }[] } }>('GET', '/api/history?format=xml');
    expect(bad.status).toBe(400);
    expect(bad.body.error.problems[0]!.field).toBe('format');
    const actor = await call<{ error: { problems: { field: string }[] } }>(
      'GET',
      '/api/history?format=csv&actor=robot',
    );
    expect(actor.status).toBe(400);
    expect(actor.body.error.problems[0]!.field).toBe('actor');
    expect((await call('GET', '/api/history?limit=0')).status).toBe(400);
  });

  it('reports the savings in a given zone, and the start and stop durations in the app details', async () => {
    const { call, clock, appId, server } = await serve();
    const review = await appId('idle-review');
    // idle-review sleeps after 3 minutes without traffic.
    for (let t = 0; t < 10 * MINUTE; t += 10 * SECOND) await clock.advance(10 * SECOND);
    const report = await call<SavingsReport>('GET', '/api/savings?timeZone=Europe/Paris');
    expect(report.status).toBe(200);
    expect(report.body.timeZone).toBe('Europe/Paris');
    const app = report.body.apps.find((a) => a.appId === review)!;
    expect(app.windows.today.hoursAsleep).toBeGreaterThan(0);
    expect(app).toMatchObject({ flavorName: 'XS', flavorPrice: 0.3436, instances: 1 });
    // The demo's simulator serves the price system: XS at its euro price per hour.
    expect(report.body.pricing).toEqual({
      unit: 'drops-per-10-min',
      eurPerDrop: 0.0097,
      confirmed: false,
      source: 'price-system',
      priceSystemProblem: null,
    });
    expect(app.priceSource).toBe('price-system');
    expect(app.hourlyEur).toBeCloseTo(0.0222222222, 9);
    expect((await call('GET', '/api/savings?timeZone=Mars/Olympus')).status).toBe(400);
    const detail = await call<AppDetail>('GET', `/api/apps/${review}`);
    expect(detail.body.durations.stop.count).toBe(1);
    expect(detail.body.durations.stop.medianMs).toBe(detail.body.durations.stop.worstMs);
    // The waking page's expected time is the median start: none yet for an app never woken.
    expect(await server.service.expectedWakeMs(review)).toBeNull();
    const sandbox = await appId('api-sandbox');
    await call('POST', `/api/apps/${sandbox}/_wake`);
    for (let t = 0; t < 3 * MINUTE; t += 5 * SECOND) await clock.advance(5 * SECOND);
    const started = await call<AppDetail>('GET', `/api/apps/${sandbox}`);
    expect(started.body.app.state).toBe('Up');
    expect(await server.service.expectedWakeMs(sandbox)).toBe(started.body.durations.start.medianMs);
    expect(started.body.durations.start.count).toBe(1);
  });

  it('sends a test to a webhook, and shows the delivery status of those in the settings', async () => {
    const received: unknown[] = [];
    const receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push(JSON.parse(Buffer.concat(chunks).toString()));
        res.end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receivers.push(receiver);
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    const { call } = await serve();
    const saved = await call('PATCH', '/api/settings', {
      webhooks: [{ url, format: 'json', events: ['error'] }],
    });
    expect(saved.status).toBe(200);
    const test = await call<{ ok: boolean; status: number }>('POST', '/api/webhooks/_test', {
      url,
      format: 'json',
    });
    expect(test.body).toMatchObject({ ok: true, status: 200 });
    expect(received[0]).toMatchObject({ source: 'clever-reaper', event: 'test' });
    const status = await call<{ url: string; lastSuccessAt: number | null }[]>('GET', '/api/webhooks');
    expect(status.body).toHaveLength(1);
    expect(status.body[0]!.url).toBe(url);
    expect(status.body[0]!.lastSuccessAt).not.toBeNull();
    const bad = await call<{ error: { problems: { field: string }[] } }>('PATCH', '/api/settings', {
      webhooks: [{ url: 'file:///etc/passwd', format: 'json', events: ['error'] }],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.problems[0]!.field).toBe('webhooks.0.url');
  });
});
