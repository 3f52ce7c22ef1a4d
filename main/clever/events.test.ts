import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MINUTE, SECOND } from '../../shared/durations.ts';
import { systemClock } from '../engine/clocks.ts';
import { EventFollower } from '../service/event-follower.ts';
import { SimulatedCloud } from '../simulator/model.ts';
import { DEMO_CREDENTIALS, type SimulatorServer, startSimulatorServer } from '../simulator/server.ts';
import { type LiveHarness, liveHarness } from '../testing/live-harness.ts';
import { until } from '../testing/serve-process.ts';
import { CleverClient } from './client.ts';
import { operatorCredentials } from './credentials.ts';
import { type CleverEvent, EventSocketRefused, parseSocketMessage } from './events.ts';

const o = DEMO_CREDENTIALS.oauth;
const client = (url: string, secret = o.secret) =>
  new CleverClient({
    credentials: operatorCredentials(
      { kind: 'oauth1', token: o.token, secret },
      { consumerKey: o.consumerKey, consumerSecret: o.consumerSecret },
    ),
    apiHost: url,
  });

describe('the event socket messages, as the platform sends them', () => {
  it('an event carries its data as a JSON string, and names its app by appId or id', () => {
    const data = JSON.stringify({
      id: 'app_1',
      uuid: 'd-1',
      state: 'OK',
      action: 'DEPLOY',
      commit: 'abc',
      cause: 'x',
    });
    expect(
      parseSocketMessage(
        JSON.stringify({ event: 'DEPLOYMENT_ACTION_END', date: '2026-01-05T09:00:00Z', data }),
      ),
    ).toEqual({
      kind: 'event',
      event: {
        type: 'DEPLOYMENT_ACTION_END',
        date: '2026-01-05T09:00:00Z',
        appId: 'app_1',
        data: { id: 'app_1', uuid: 'd-1', state: 'OK', action: 'DEPLOY', commit: 'abc', cause: 'x' },
      },
    });
  });

  it('a heartbeat ping gives its delay; an error 2001 is a refusal; anything else is ignored', () => {
    expect(
      parseSocketMessage('{"type":"heartbeat","heartbeat_msg":"ping","heartbeat_delay_ms":2000}'),
    ).toEqual({
      kind: 'ping',
      delayMs: 2000,
    });
    expect(parseSocketMessage('{"type":"error","id":2001}')).toEqual({ kind: 'refused' });
    expect(parseSocketMessage('{"message_type":"socket_ready"}')).toEqual({ kind: 'other' });
    expect(parseSocketMessage('not json')).toEqual({ kind: 'other' });
  });
});

describe('the event socket against the simulator', () => {
  let sim: SimulatorServer;
  let cloud: SimulatedCloud;
  beforeEach(async () => {
    cloud = new SimulatedCloud(systemClock, { listingDelayMs: 50, deployDurationMs: 300 });
    sim = await startSimulatorServer({ cloud });
  });
  afterEach(() => sim.close());

  it('delivers a deployment beginning and ending', async () => {
    const org = cloud.addOrganisation('Acme');
    const app = cloud.addApp(org.id, 'staging', { state: 'SHOULD_BE_DOWN' });
    const controller = new AbortController();
    const seen: CleverEvent[] = [];
    const reading = (async () => {
      for await (const e of client(sim.url).events({ signal: controller.signal })!) {
        seen.push(e);
        if (e.type === 'DEPLOYMENT_ACTION_END') controller.abort();
      }
    })();
    await until('the event socket to follow the platform', 20_000, async () => sim.eventSockets() > 0);
    cloud.start(org.id, app.id);
    await reading;
    expect(seen.map((e) => `${e.type} ${e.appId} ${e.data.state}`)).toEqual([
      `DEPLOYMENT_ACTION_BEGIN ${app.id} WIP`,
      `DEPLOYMENT_ACTION_END ${app.id} OK`,
    ]);
  });

  it('waits for the first ping however long it takes: no watchdog before it (as clever-client.js)', async () => {
    sim.behaviour.socketPingDelayMs = 60_000; // the first ping comes a minute after the socket opens
    const org = cloud.addOrganisation('Acme');
    const app = cloud.addApp(org.id, 'quiet', { state: 'SHOULD_BE_DOWN' });
    const controller = new AbortController();
    const seen: string[] = [];
    const reading = (async () => {
      for await (const e of client(sim.url).events({ signal: controller.signal })!) {
        seen.push(e.type);
        controller.abort();
      }
    })();
    await until('the event socket to follow the platform', 30_000, async () => sim.eventSockets() > 0);
    // Silent for longer than a watchdog armed on the assumed delay would allow (1.25 x 15 s).
    await new Promise((r) => setTimeout(r, 19_000));
    cloud.start(org.id, app.id);
    await reading;
    expect(seen).toEqual(['DEPLOYMENT_ACTION_BEGIN']);
  }, 90_000);

  it('after a ping, a silence longer than 1.25 times its announced delay ends the stream', async () => {
    const DELAY = 1000;
    sim.behaviour.socketPingDelayMs = DELAY;
    const events = client(sim.url).events()!;
    let settled = false;
    const pending = events.next();
    const outcome = pending.then(
      () => {
        settled = true;
        return null;
      },
      (error: unknown) => {
        settled = true;
        return error;
      },
    );
    await new Promise((r) => setTimeout(r, 3.5 * DELAY)); // three pings answered: the stream stays open
    expect(settled).toBe(false);
    sim.behaviour.socketPings = false;
    const silentFrom = performance.now();
    const error = await outcome;
    const after = performance.now() - silentFrom;
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe('the event socket went silent');
    // The last ping came at most DELAY before the pings stopped; some slack for a loaded machine.
    expect(after).toBeGreaterThanOrEqual(1.25 * DELAY - DELAY - 50);
    expect(after).toBeLessThan(1.25 * DELAY + 1000);
  });

  it('refuses bad credentials with error 2001', async () => {
    const events = client(sim.url, 'wrong')!.events()!;
    await expect(events.next()).rejects.toBeInstanceOf(EventSocketRefused);
  });

  it('is not offered with an API token (its authorization is an OAuth header)', () => {
    const bearer = new CleverClient({
      credentials: operatorCredentials({ kind: 'api-token', token: 't' }),
      apiHost: sim.url,
    });
    expect(bearer.hasEventSocket).toBe(false);
    expect(bearer.events()).toBeNull();
  });
});

describe('an app that finished starting, seen through the event socket', () => {
  let h: LiveHarness;
  afterEach(() => h.close());

  it('is seen Up right after its deployment ends, long before the next pace', async () => {
    // Paces slowed to an hour and ten minutes: only the event can make the reaper look in time.
    h = await liveHarness({ factor: 10, settings: { intervalMs: 60 * MINUTE, fastIntervalMs: 10 * MINUTE } });
    const app = h.manage('sandbox', { state: 'SHOULD_BE_DOWN', deployDurationMs: 20 * SECOND });
    const follower = new EventFollower({
      engine: h.engine,
      source: (signal) => h.client.events({ signal }) ?? [],
    });
    await h.engine.start();
    follower.start();
    try {
      await h.eventually(() => h.state(app.id) === 'Down', 'Down');
      await until('the follower on the event socket', 20_000, async () => h.sim.eventSockets() > 0);
      await h.engine.wake(app.id, 'dashboard');
      const asked = h.engine.get(app.id)!.firstStartAskedAt!;
      await h.eventually(() => h.state(app.id) === 'Up', 'Up', 20_000);
      const seenUpAfter = h.engine.get(app.id)!.stateSince - asked;
      expect(seenUpAfter).toBeLessThan(2 * MINUTE);
      expect(follower.events).toBeGreaterThanOrEqual(2);
    } finally {
      await follower.stop();
    }
  });
});
