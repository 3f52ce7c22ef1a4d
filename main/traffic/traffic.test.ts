/**
 * Traffic end to end: the access-log streams of the simulator and the wake proxy, with the engine,
 * the real client and the simulator over HTTP on a clock 100 times faster.
 */
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { HOUR, MINUTE, SECOND } from '../../shared/durations.ts';
import { accessLogFollowerOf } from '../testing/access-log-follower.ts';
import { type LiveHarness, liveHarness } from '../testing/live-harness.ts';
import type { AccessLogFollower } from './access-logs.ts';
import { TrafficStats } from './stats.ts';
import { cleverUpstream } from './upstream.ts';
import { WakeProxy } from './wake-proxy.ts';

let h: LiveHarness;
let follower: AccessLogFollower | null = null;
let proxy: WakeProxy | null = null;
afterEach(async () => {
  await follower?.stop();
  await proxy?.close();
  follower = null;
  proxy = null;
  await h?.close();
});

function followAccessLogs(stats = new TrafficStats()) {
  follower = accessLogFollowerOf(h, { stats });
  follower.start();
  return stats;
}

describe('traffic from the access logs', () => {
  it('requests keep an app awake, and it sleeps one grace period after they stop', async () => {
    h = await liveHarness();
    const app = h.manage('busy', {}, { gracePeriodMs: 2 * MINUTE });
    await h.engine.start();
    const stats = followAccessLogs();
    await h.eventually(() => h.state(app.id) === 'Up', 'Up');
    const until = h.clock.now() + 6 * MINUTE;
    while (h.clock.now() < until) {
      const counted = stats.get(app.id).counted;
      h.cloud.recordRequest(app.id, { path: '/cart' });
      // Read from the stream before the next (a loaded machine reads late): then 30 s of engine time.
      await h.eventually(() => stats.get(app.id).counted > counted, 'the request read');
      await new Promise((r) => setTimeout(r, 300)); // 30 s of engine time, the traffic's pace
      expect(h.state(app.id)).toBe('Up');
    }
    expect(h.engine.get(app.id)!.lastRequestSource).toBe('access-log');
    await h.eventually(() => h.state(app.id) === 'Down', 'Down once the traffic stops');
  });

  it("requests the route's filters ignore do not keep it awake, and are counted with their reason", async () => {
    h = await liveHarness();
    const app = h.manage(
      'monitored',
      {},
      { gracePeriodMs: 2 * MINUTE, filters: { pathPrefixes: ['/health'], sources: ['198.51.100.0/24'] } },
    );
    await h.engine.start();
    const stats = followAccessLogs();
    await h.eventually(() => h.state(app.id) === 'Up', 'Up');
    const pings = setInterval(() => {
      h.cloud.recordRequest(app.id, { path: '/health' });
      h.cloud.recordRequest(app.id, { path: '/', sourceIp: '198.51.100.23' });
    }, 100);
    try {
      await h.eventually(() => h.state(app.id) === 'Down', 'Down despite the pings');
    } finally {
      clearInterval(pings);
    }
    const seen = stats.get(app.id);
    expect(seen.counted).toBe(0);
    expect(seen.ignored['path /health']).toBeGreaterThan(5);
    expect(seen.ignored['source 198.51.100.0/24']).toBeGreaterThan(5);
  });

  it('a dropped stream whose entries carry no id resumes by date, skipping the entry at the boundary', async () => {
    h = await liveHarness({ factor: 10 });
    h.sim.behaviour.accessLogIds = false;
    const app = h.manage('anonymous', {}, { gracePeriodMs: HOUR });
    await h.engine.start();
    const stats = followAccessLogs();
    await h.eventually(() => follower!.status(app.id)?.connected === true, 'the stream open');
    for (let i = 0; i < 3; i++) h.cloud.recordRequest(app.id, { path: `/a${i}` });
    await h.eventually(() => stats.get(app.id).counted === 3, 'the first three');
    h.sim.dropStreams();
    for (let i = 0; i < 3; i++) h.cloud.recordRequest(app.id, { path: `/b${i}` }); // while disconnected
    await h.eventually(
      () => follower!.status(app.id)?.connected === true && stats.get(app.id).counted >= 6,
      'resumed',
    );
    await new Promise((r) => setTimeout(r, 300));
    expect(stats.get(app.id).counted).toBe(6);
  });

  it.each([
    ['honours', true],
    ['ignores', false],
  ])(
    'a dropped stream resumes after the last event when the server %s Last-Event-ID: nothing lost, nothing counted twice',
    async (_, honour) => {
      h = await liveHarness({ factor: 10 });
      h.sim.behaviour.honourLastEventId = honour;
      const app = h.manage('steady', {}, { gracePeriodMs: HOUR });
      await h.engine.start();
      const stats = followAccessLogs();
      await h.eventually(() => follower!.status(app.id)?.connected === true, 'the stream open');
      for (let i = 0; i < 5; i++) h.cloud.recordRequest(app.id, { path: `/a${i}` });
      await h.eventually(() => stats.get(app.id).counted === 5, 'the first five');
      h.sim.dropStreams();
      for (let i = 0; i < 5; i++) h.cloud.recordRequest(app.id, { path: `/b${i}` }); // while disconnected
      await h.eventually(
        () => follower!.status(app.id)?.connected === true && stats.get(app.id).counted >= 10,
        'resumed',
      );
      h.sim.dropStreams();
      h.cloud.recordRequest(app.id, { path: '/c' });
      await h.eventually(() => stats.get(app.id).counted >= 11, 'the last one');
      await new Promise((r) => setTimeout(r, 300));
      expect(stats.get(app.id).counted).toBe(11);
      expect(follower!.status(app.id)!.failures).toBe(0);
    },
  );

  it('a connection without an HTTP request (no `http` section) neither counts as traffic nor wakes the app', async () => {
    h = await liveHarness();
    const app = h.manage('tcp', { state: 'SHOULD_BE_DOWN' });
    await h.engine.start();
    const stats = followAccessLogs();
    await h.eventually(
      () => h.state(app.id) === 'Down' && follower!.status(app.id)?.connected === true,
      'Down',
    );
    for (let i = 0; i < 5; i++) h.cloud.recordRequest(app.id, { noHttp: true });
    await h.eventually(() => follower!.status(app.id)!.events === 5, 'the five entries read');
    await new Promise((r) => setTimeout(r, 300)); // 30 s of engine time
    expect(h.state(app.id)).toBe('Down');
    expect(stats.get(app.id)).toMatchObject({ counted: 0, ignored: { 'not an HTTP request': 5 } });
    expect(h.engine.get(app.id)!.lastRequestAt ?? null).toBeNull();
    h.cloud.recordRequest(app.id, { path: '/' });
    await h.eventually(() => h.state(app.id) === 'WaitingForUp', 'woken by a real request');
    expect(stats.get(app.id).counted).toBe(1);
  });

  it('a request logged for an Asleep app wakes it', async () => {
    h = await liveHarness();
    const app = h.manage('asleep', { state: 'SHOULD_BE_DOWN' });
    await h.engine.start();
    followAccessLogs();
    await h.eventually(
      () => h.state(app.id) === 'Down' && follower!.status(app.id)?.connected === true,
      'Down',
    );
    h.cloud.recordRequest(app.id, { path: '/' });
    await h.eventually(() => h.state(app.id) === 'WaitingForUp', 'woken');
    await h.eventually(() => h.state(app.id) === 'Up', 'Up');
    expect((await h.store.historyOf(app.id)).find((e) => e.to === 'WaitingForUp')).toMatchObject({
      actor: 'request',
    });
  });
});

describe('the wake proxy', () => {
  async function withProxy(failTimeoutMs = 15 * MINUTE) {
    const stats = new TrafficStats();
    proxy = new WakeProxy({
      engine: h.engine,
      routes: () => h.config.routes(),
      holdDeadlineMs: () => 2 * MINUTE,
      failTimeoutMs: () => failTimeoutMs,
      clock: h.clock,
      stats,
      upstream: cleverUpstream(h.client, { origin: h.sim.url }),
      expectedWakeMs: async () => 45 * SECOND,
    });
    const address = await proxy.listen(0);
    return { stats, port: address.port };
  }

  function get(port: number, host: string, path = '/', headers: Record<string, string> = {}) {
    return new Promise<{ status: number; headers: Record<string, unknown>; body: string }>(
      (resolve, reject) => {
        const req = request({ host: '127.0.0.1', port, path, headers: { host, ...headers } }, (res) => {
          let body = '';
          res.on('data', (c) => (body += c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
        });
        req.on('error', reject);
        req.end();
      },
    );
  }

  async function asleepApp(hosts: string[], extra: Parameters<LiveHarness['manage']>[2] = {}) {
    h = await liveHarness();
    const app = h.manage('sandbox', { state: 'SHOULD_BE_DOWN' }, { hosts, ...extra });
    await h.engine.start();
    await h.eventually(() => h.state(app.id) === 'Down', 'Down');
    return app;
  }

  it('a Host no route names gets 404 and reaches nothing', async () => {
    await asleepApp(['sandbox.test']);
    const { port } = await withProxy();
    // The engine's sweeps call the API meanwhile: stopped, and its calls in flight landed, only the
    // proxy's calls are counted.
    await h.engine.stop();
    await new Promise((r) => setTimeout(r, 200));
    const before = h.sim.totalCalls();
    const answer = await get(port, 'elsewhere.test');
    expect(answer.status).toBe(404);
    expect(answer.body).toContain('no app is routed for this host');
    expect(h.sim.totalCalls()).toBe(before);
  });

  it('an absolute-form target or CONNECT is refused: not an open proxy', async () => {
    await asleepApp(['sandbox.test']);
    const { port } = await withProxy();
    expect((await get(port, 'sandbox.test', 'http://169.254.169.254/latest')).status).toBe(400);
    const connect = await new Promise<number>((resolve) => {
      const req = request({
        host: '127.0.0.1',
        port,
        method: 'CONNECT',
        path: 'example.com:443',
        headers: { host: 'sandbox.test' },
      });
      req.on('connect', (res) => resolve(res.statusCode ?? 0));
      req.on('response', (res) => resolve(res.statusCode ?? 0));
      req.on('error', () => resolve(-1));
      req.end();
    });
    expect(connect).toBe(405);
  });

  it('a browser asking for an Asleep app gets the waking page at once; the app starts; then its own content', async () => {
    const app = await asleepApp(['sandbox.test']);
    const { port } = await withProxy();
    const page = await get(port, 'sandbox.test', '/', { accept: 'text/html' });
    expect(page.status).toBe(503);
    expect(page.headers['retry-after']).toBe('5');
    expect(page.body).toContain('Waking up sandbox');
    // A no-break space: "45 s" never breaks across lines (issue 26, item 13).
    expect(page.body).toContain('usually ready in about 45\u00a0s');
    // The page is sent before the start call returns; the start follows at once.
    await h.eventually(() => h.state(app.id) === 'WaitingForUp', 'the start');
    await h.eventually(() => h.state(app.id) === 'Up', 'Up');
    const content = await get(port, 'sandbox.test', '/', { accept: 'text/html' });
    expect(content.status).toBe(200);
    expect(content.body).toContain('<h1>sandbox</h1>');
    expect(h.engine.get(app.id)!.lastRequestSource).toBe('wake-proxy');
  });

  it("speaks the visitor's language: French for a French browser, English otherwise, the name escaped", async () => {
    await asleepApp(['sandbox.test']);
    const { port } = await withProxy();
    const french = await get(port, 'sandbox.test', '/', {
      accept: 'text/html',
      'accept-language': 'de-DE, fr-CH;q=0.9, en;q=0.5',
    });
    expect(french.status).toBe(503);
    expect(french.headers['content-language']).toBe('fr');
    expect(french.headers.vary).toMatch(/accept-language/i);
    expect(french.body).toContain('<html lang="fr">');
    expect(french.body).toContain('Réveil de sandbox');
    expect(french.body).toContain('prête d’habitude en 45\u00a0s environ');
    expect(french.body).toContain('aria-label="Progression du démarrage"');
    const english = await get(port, 'sandbox.test', '/', {
      accept: 'text/html',
      'accept-language': 'it, de',
    });
    expect(english.headers['content-language']).toBe('en');
    expect(english.body).toContain('<html lang="en">');
    expect(english.body).toContain('Waking up sandbox');
  });

  it('fifty API requests at once start the app once, and are all answered by the app', async () => {
    const app = await asleepApp(['api.sandbox.test']);
    const { port } = await withProxy();
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => get(port, 'api.sandbox.test', `/items/${i}`)),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(200));
    expect(JSON.parse(answers[7]!.body)).toEqual({ app: 'sandbox', method: 'GET', path: '/items/7' });
    expect(h.sim.calls.get('POST /v2/organisations/:XXX/applications/:XXX/instances')).toBe(1);
    expect(h.state(app.id)).toBe('Up');
  });

  it('a request during a stop is not lost: held, the app started again, then answered', async () => {
    h = await liveHarness({ sim: { stopDurationMs: 30 * SECOND } });
    const app = h.manage('stopping', {}, { hosts: ['stop.test'], gracePeriodMs: MINUTE });
    await h.engine.start();
    const { port } = await withProxy();
    await h.eventually(() => h.state(app.id) === 'WaitingForShutdown', 'going to sleep');
    const answer = await get(port, 'stop.test', '/late');
    expect(answer.status).toBe(200);
    const path = (await h.store.historyOf(app.id))
      .filter((e) => e.kind === 'transition')
      .map((e) => e.to)
      .reverse();
    expect(path.slice(-4)).toEqual(['WaitingForShutdown', 'Down', 'WaitingForUp', 'Up']);
  });

  it('an API client held past the fail timeout gets 504 with Retry-After', async () => {
    const app = await asleepApp(['slow.test']);
    h.cloud.apps.get(app.id)!.deployDurationMs = 30 * MINUTE;
    const { port } = await withProxy(MINUTE);
    const answer = await get(port, 'slow.test', '/api');
    expect(answer.status).toBe(504);
    expect(answer.headers['retry-after']).toBe('45');
    expect(JSON.parse(answer.body)).toMatchObject({
      error: 'sandbox did not come up within the fail timeout',
      state: 'Waking up',
      retryAfterSeconds: 45,
    });
  });

  it('a health check never wakes an Asleep app', async () => {
    const app = await asleepApp(['checked.test'], { filters: { pathPrefixes: ['/healthz'], sources: [] } });
    const { port, stats } = await withProxy();
    const answer = await get(port, 'checked.test', '/healthz');
    expect(answer.status).toBe(503);
    expect(h.state(app.id)).toBe('Down');
    expect(stats.get(app.id).ignored).toEqual({ 'path /healthz': 1 });
  });

  it('an app in Error is passed through as if the reaper was not there', async () => {
    h = await liveHarness();
    const app = h.manage('moderated', { state: 'MODERATED' }, { hosts: ['mod.test'] });
    await h.engine.start();
    await h.eventually(() => h.state(app.id) === 'Error', 'Error');
    const { port } = await withProxy();
    const answer = await get(port, 'mod.test', '/');
    expect(answer.status).toBe(503);
    expect(answer.body).toBe('moderated is not running');
    expect(h.sim.calls.get('POST /v2/organisations/:XXX/applications/:XXX/instances') ?? 0).toBe(0);
  });
});
