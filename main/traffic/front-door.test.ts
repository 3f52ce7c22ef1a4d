/**
 * The front door, end to end: the real wake proxy over loopback, the engine with the real client,
 * and the simulator, whose front answers like Clever Cloud's (its "not routed yet" 404 with
 * X-CleverCloudUpgrade, or a 503, for a while after Up). Never a loop; Up means the app answers; each
 * caller answered as its route says; a link preview never wakes an app.
 */
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { CAUSES, newRecord } from '../../shared/domain.ts';
import { MINUTE, SECOND } from '../../shared/durations.ts';
import type { RouteCreate } from '../../shared/routes.ts';
import type { SettingsUpdate } from '../../shared/settings.ts';
import type { SimOptions } from '../simulator/model.ts';
import { type LiveHarness, liveHarness } from '../testing/live-harness.ts';
import { heldAnswer } from './caller-policy.ts';
import { ownHostOf } from './loop-guard.ts';
import type { FirstAnswer } from './ready-gate.ts';
import { TrafficStats } from './stats.ts';
import { cleverUpstream } from './upstream.ts';
import { type Upstream, WakeProxy } from './wake-proxy.ts';

let h: LiveHarness;
const proxies: WakeProxy[] = [];
afterEach(async () => {
  for (const p of proxies.splice(0)) await p.close();
  await h?.close();
});

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function call(
  port: number,
  host: string,
  options: { path?: string; method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: options.path ?? '/',
        method: options.method ?? 'GET',
        headers: { host, ...options.headers },
      },
      (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

async function withProxy(
  upstream?: (appId: string, ownerId: string) => Promise<Upstream>,
  holdDeadlineMs = 10 * MINUTE,
  failTimeoutMs = () => h.config.settings().failTimeoutMs,
) {
  const stats = new TrafficStats();
  const firstAnswers: FirstAnswer[] = [];
  const proxy = new WakeProxy({
    engine: h.engine,
    routes: () => h.config.routes(),
    holdDeadlineMs: () => holdDeadlineMs,
    failTimeoutMs,
    clock: h.clock,
    stats,
    upstream: upstream ?? cleverUpstream(h.client, { origin: h.sim.url, isOwnHost: ownHostOf(h.engine) }),
    expectedWakeMs: async () => 45 * SECOND,
    onFirstAnswer: (a) => firstAnswers.push(a),
  });
  proxies.push(proxy);
  const { port } = await proxy.listen(0);
  return { proxy, port, stats, firstAnswers };
}

async function routed(
  name: string,
  route: Partial<RouteCreate>,
  app: Parameters<LiveHarness['manage']>[1] = {},
  sim: Partial<SimOptions> = {},
  settings: SettingsUpdate = {},
) {
  h = await liveHarness({ sim, settings });
  const created = h.manage(name, { state: 'SHOULD_BE_DOWN', ...app }, route);
  await h.engine.start();
  const wanted = app.state === 'SHOULD_BE_UP' ? 'Up' : 'Down';
  await h.eventually(() => h.state(created.id) === wanted, wanted);
  return created;
}

const starts = () => h.sim.calls.get('POST /v2/organisations/:XXX/applications/:XXX/instances') ?? 0;

describe('never a loop', () => {
  it("the app's first domain is the wake-proxy host itself: its requests go to its cleverapps.io domain", async () => {
    const app = await routed(
      'looped',
      { hosts: ['looped.example.com'] },
      { state: 'SHOULD_BE_UP', vhosts: ['looped.example.com', 'app-looped.cleverapps.io'] },
    );
    const { port } = await withProxy();
    const answer = await call(port, 'looped.example.com', { path: '/orders' });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ app: 'looped', method: 'GET', path: '/orders' });
    const served = h.cloud.apps.get(app.id)!.accessLog.filter((e) => e.path === '/orders');
    expect(served.map((e) => e.host)).toEqual(['app-looped.cleverapps.io']);
  });

  it("a request carrying this reaper's own Via gets 508, and a real loop ends at the first turn", async () => {
    const app = await routed('circle', { hosts: ['circle.test'] }, { state: 'SHOULD_BE_UP' });
    // An upstream that points back at the proxy (a custom domain whose DNS names the reaper).
    let self = '';
    const { proxy, port } = await withProxy(async () => ({ origin: self, host: 'circle.test' }));
    self = `http://127.0.0.1:${port}`;

    const marked = await call(port, 'circle.test', { headers: { via: `1.1 other-proxy, 1.1 ${proxy.via}` } });
    expect(marked.status).toBe(508);
    expect(marked.body).toContain('already went through this reaper');

    const other = await call(port, 'circle.test', { headers: { via: '1.1 clever-reaper-someone-else' } });
    expect(other.status).toBe(508); // forwarded once (the other reaper's entry kept), then back here

    const looped = await call(port, 'circle.test', { path: '/loop' });
    expect(looped.status).toBe(508);
    expect(h.cloud.apps.get(app.id)!.accessLog.some((e) => e.path === '/loop')).toBe(false);
  });
});

describe('Up means the app answers', () => {
  it.each([
    ['its 404 with X-CleverCloudUpgrade', 'upgrade-404'],
    ['a 503', 'unavailable-503'],
    ['both in turn', 'alternate'],
  ] as const)('the first requests after a wake never see the front answering %s', async (_, answer) => {
    const app = await routed(
      'warming',
      { hosts: ['warming.test'], readyDelayMs: 2 * MINUTE },
      {},
      { frontWarmupMs: 30 * SECOND, frontWarmupAnswer: answer },
    );
    const { port, firstAnswers } = await withProxy();
    const api = Array.from({ length: 10 }, (_, i) => call(port, 'warming.test', { path: `/items/${i}` }));
    const posted = call(port, 'warming.test', {
      path: '/orders',
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': '2' },
      body: '{}',
    });
    const answers = await Promise.all([...api, posted]);
    expect(answers.map((a) => a.status)).toEqual(Array(11).fill(200));
    expect(answers.some((a) => a.headers['x-clevercloudupgrade'])).toBe(false);
    expect(starts()).toBe(1);

    const log = h.cloud.apps.get(app.id)!.accessLog;
    // The front did answer "not yet" after Up (to the proxy's probe), and nothing else saw it.
    const notYet = log.filter((e) => e.statusCode === 404 || e.statusCode === 503);
    expect(notYet.length).toBeGreaterThan(0);
    expect(notYet.every((e) => e.method === 'HEAD' && e.path === '/')).toBe(true);
    // The POST reached the app once.
    expect(log.filter((e) => e.method === 'POST').map((e) => e.statusCode)).toEqual([200]);

    // A browser that opens the app now gets it, not the waking page.
    const page = await call(port, 'warming.test', { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(page.body).toContain('<h1>warming</h1>');

    // The history says how long the first visitor waited.
    expect(firstAnswers).toHaveLength(1);
    expect(firstAnswers[0]!.timedOut).toBe(false);
    expect(firstAnswers[0]!.waitMs).toBeGreaterThan(firstAnswers[0]!.afterUpMs);
    await h.eventually(
      () => h.historyOf(app.id).some((e) => e.kind === 'first-answer'),
      'the first answer in the history',
    );
    const entry = h.historyOf(app.id).find((e) => e.kind === 'first-answer')!;
    expect(entry.reason).toMatch(/^the app answered the first request .+ after it \(.+ after Up\)$/);
  });

  it("past the route's ready delay, the app's own 503 is its answer and is passed on", async () => {
    const app = await routed(
      'failing',
      { hosts: ['failing.test'], readyDelayMs: 0 },
      {},
      { frontWarmupMs: 10 * MINUTE, frontWarmupAnswer: 'unavailable-503' },
    );
    const { port } = await withProxy();
    const answer = await call(port, 'failing.test', { path: '/api' });
    expect(answer.status).toBe(503);
    expect(answer.body).toBe('failing is not running');
    expect(h.state(app.id)).toBe('Up');
  });
});

describe('each caller answered as its route says', () => {
  it('unavailable: a JSON 503 with Retry-After at once, and the app wakes all the same', async () => {
    const app = await routed('scripted', { hosts: ['scripted.test'], callers: 'unavailable' });
    h.cloud.apps.get(app.id)!.deployDurationMs = 30 * MINUTE; // it cannot be up before the answer
    const { port } = await withProxy();
    const answer = await call(port, 'scripted.test', { path: '/api/things' });
    expect(answer.status).toBe(503);
    expect(answer.headers['retry-after']).toBe('45');
    expect(answer.headers['content-type']).toMatch(/application\/json/);
    expect(JSON.parse(answer.body)).toMatchObject({ retryAfterSeconds: 45 });
    await h.eventually(() => h.state(app.id) === 'WaitingForUp' && starts() === 1, 'woken');
  });

  it('hold: held until the app answers, then proxied', async () => {
    const app = await routed('patient', { hosts: ['patient.test'], callers: 'hold' });
    const { port } = await withProxy();
    const answer = await call(port, 'patient.test', { path: '/api/things' });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ app: 'patient', method: 'GET', path: '/api/things' });
    expect(h.state(app.id)).toBe('Up');
  });

  it('hold: a 503 at once when the app goes to Error', async () => {
    const app = await routed('broken', { hosts: ['broken.test'] });
    h.cloud.injectOutcomes(app.id, 'fail', 'fail', 'fail', 'fail', 'fail');
    // Neither deadline can end this hold: only the Error does.
    const { port } = await withProxy(undefined, 24 * 60 * MINUTE, () => 24 * 60 * MINUTE);
    const answer = await call(port, 'broken.test', { path: '/api' });
    expect(answer.status).toBe(503);
    expect(JSON.parse(answer.body)).toMatchObject({ error: 'broken could not be started', state: 'Error' });
    expect(h.state(app.id)).toBe('Error');
  });

  it('hold: a 504 with Retry-After at the fail timeout when the app never comes up', async () => {
    const app = await routed('stuck', { hosts: ['stuck.test'] }, {}, {}, { failTimeoutMs: 2 * MINUTE });
    h.cloud.apps.get(app.id)!.deployDurationMs = 30 * MINUTE; // never up within the fail timeout
    const { port } = await withProxy();
    const posted = call(port, 'stuck.test', {
      path: '/orders',
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': '2' },
      body: '{}',
    });
    const answers = await Promise.all([call(port, 'stuck.test', { path: '/api' }), posted]);
    for (const answer of answers) {
      expect(answer.status).toBe(504);
      expect(answer.headers['retry-after']).toBe('45');
      expect(JSON.parse(answer.body)).toMatchObject({
        error: 'stuck did not come up within the fail timeout',
        retryAfterSeconds: 45,
      });
    }
    await h.eventually(() => h.state(app.id) === 'Error', 'Error after the fail timeout');
    expect(h.engine.get(app.id)!.cause).toBe(CAUSES.startTimeout);
    // Nothing reached the app.
    expect(h.cloud.apps.get(app.id)!.accessLog.some((e) => e.path === '/orders' || e.path === '/api')).toBe(
      false,
    );
  });

  it('a hold ends 503 on an Error, 504 on the fail timeout (whether the engine or the wait says it first)', () => {
    const waking = { ...newRecord('app_held', 'orga_acme', 'held', 0), state: 'WaitingForUp' as const };
    const failed = { ...waking, state: 'Error' as const, cause: CAUSES.startFailed };
    const timedOut = { ...waking, state: 'Error' as const, cause: CAUSES.startTimeout };
    // The deployment failed: 503 at once, with the cause.
    expect(heldAnswer('held', failed, failed, 45)).toEqual({
      status: 503,
      body: { error: 'held could not be started', state: 'Error', cause: CAUSES.startFailed },
      retryAfter: 30,
    });
    // The engine said the fail timeout first (an Error with that cause): the fail timeout.
    expect(heldAnswer('held', timedOut, timedOut, 45)).toMatchObject({
      status: 504,
      body: { state: 'Error', cause: CAUSES.startTimeout, retryAfterSeconds: 45 },
    });
    // The wait said it first (the app still waking up).
    expect(heldAnswer('held', null, waking, 45)).toEqual({
      status: 504,
      body: {
        error: 'held did not come up within the fail timeout',
        state: 'Waking up',
        retryAfterSeconds: 45,
      },
      retryAfter: 45,
    });
    // Released meanwhile: 503, nothing to wait for.
    expect(heldAnswer('held', null, undefined, 45)).toMatchObject({
      status: 503,
      body: { state: 'Released' },
    });
  });

  it('a health check on an asleep app: 503 by default, 200 with a status body when the route says so', async () => {
    await routed('checked', {
      hosts: ['checked.test'],
      filters: { pathPrefixes: ['/healthz'], sources: [] },
    });
    const other = h.manage(
      'reported',
      { state: 'SHOULD_BE_DOWN' },
      {
        hosts: ['reported.test'],
        ignoredAnswer: 'status',
        filters: { pathPrefixes: ['/healthz'], sources: [] },
      },
    );
    await h.eventually(() => h.state(other.id) === 'Down', 'Down');
    const { port } = await withProxy();
    expect((await call(port, 'checked.test', { path: '/healthz' })).status).toBe(503);
    const status = await call(port, 'reported.test', { path: '/healthz' });
    expect(status.status).toBe(200);
    expect(JSON.parse(status.body)).toEqual({
      app: 'reported',
      state: 'Asleep',
      woken: false,
      why: 'path /healthz',
    });
    expect(starts()).toBe(0);
  });
});

describe('user agents that never wake an app', () => {
  const SLACKBOT = 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)';

  it('a Slackbot preview of an asleep app does not wake it; a person after it does', async () => {
    const app = await routed('shared-link', { hosts: ['link.test'] });
    const { port, stats } = await withProxy();
    const preview = await call(port, 'link.test', {
      path: '/post/42',
      headers: { 'user-agent': SLACKBOT, accept: 'text/html' },
    });
    expect(preview.status).toBe(503);
    expect(preview.body).toContain('does not wake it');
    expect(h.engine.get(app.id)!.wakeRequestedAt).toBeNull();
    expect(starts()).toBe(0);
    expect(stats.get(app.id).ignored).toEqual({ 'user agent Slackbot (link preview)': 1 });

    const person = await call(port, 'link.test', {
      path: '/post/42',
      headers: { 'user-agent': 'Mozilla/5.0' },
    });
    expect(person.status).toBe(200);
    expect(starts()).toBe(1);
  });

  it('a route can let an entry of the list wake its app, or turn the list off', async () => {
    const app = await routed('bots-welcome', {
      hosts: ['welcome.test'],
      quietAgents: { builtIn: true, wake: ['Slackbot'] },
    });
    const off = h.manage(
      'no-list',
      { state: 'SHOULD_BE_DOWN' },
      {
        hosts: ['nolist.test'],
        quietAgents: { builtIn: false, wake: [] },
      },
    );
    await h.eventually(() => h.state(off.id) === 'Down', 'Down');
    const { port } = await withProxy();
    const crawler = await call(port, 'welcome.test', { headers: { 'user-agent': 'Googlebot/2.1' } });
    expect(crawler.status).toBe(503);
    expect(h.engine.get(app.id)!.wakeRequestedAt).toBeNull();
    const slack = await call(port, 'welcome.test', { headers: { 'user-agent': SLACKBOT } });
    expect(slack.status).toBe(200);
    const monitor = await call(port, 'nolist.test', { headers: { 'user-agent': 'UptimeRobot/2.0' } });
    expect(monitor.status).toBe(200);
    expect(starts()).toBe(2);
  });
});
