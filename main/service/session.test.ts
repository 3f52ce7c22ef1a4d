import { afterEach, describe, expect, it } from 'vitest';
import { SECOND } from '../../shared/durations.ts';
import { ManualClock } from '../engine/clocks.ts';
import type { CleverCloudPort, CleverEvent } from '../engine/ports.ts';
import { InProcessCleverPort } from '../simulator/in-process-port.ts';
import { SimulatedCloud } from '../simulator/model.ts';
import { MemoryBackend } from '../store/config-store.ts';
import { SqliteStore } from '../store/sqlite/sqlite-store.ts';
import { MONDAY_9AM } from '../testing/engine-harness.ts';
import { createSessionFactory, type Session } from './session.ts';

const sessions: Session[] = [];
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.close()));
});

function aborted(signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (!signal || signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
}

/** The simulator's calls, plus the capabilities asked for (recorded, never answered). */
function portWith(
  inner: CleverCloudPort,
  capabilities: { accessLogs: boolean; eventSocket: boolean | null },
  seen: { streams: string[]; sockets: number },
): CleverCloudPort {
  const port: CleverCloudPort = {
    listOwners: (o) => inner.listOwners(o),
    listApplications: (owner, o) => inner.listApplications(owner, o),
    getApplication: (owner, app, o) => inner.getApplication(owner, app, o),
    listDeployments: (owner, app, o) => inner.listDeployments(owner, app, o),
    startApplication: (owner, app, o) => inner.startApplication(owner, app, o),
    stopApplication: (owner, app, o) => inner.stopApplication(owner, app, o),
  };
  if (capabilities.accessLogs) {
    port.accessLogs = async (_owner, appId, { signal }) => {
      seen.streams.push(appId);
      await aborted(signal);
    };
  }
  if (capabilities.eventSocket !== null) {
    Object.assign(port, { hasEventSocket: capabilities.eventSocket });
    port.events = (options) => {
      seen.sockets += 1;
      // A socket that stays open without an event, until the session closes it.
      const socket: AsyncIterable<CleverEvent> = {
        [Symbol.asyncIterator]: () => ({
          next: async () => {
            await aborted(options?.signal);
            return { done: true, value: undefined };
          },
        }),
      };
      return socket;
    };
  }
  return port;
}

async function accountSession(capabilities: { accessLogs: boolean; eventSocket: boolean | null }) {
  const clock = new ManualClock(MONDAY_9AM);
  const cloud = new SimulatedCloud(clock);
  const org = cloud.addOrganisation('Acme');
  const app = cloud.addApp(org.id, 'staging');
  const seen = { streams: [] as string[], sockets: 0 };
  const factory = createSessionFactory({
    demoClock: clock,
    accountClock: clock,
    timeScale: 1,
    scenario: 'e2e',
    accountBackend: () => new MemoryBackend(),
    accountDatastore: () => ({ store: new SqliteStore(':memory:'), problem: null }),
  });
  const session = await factory.account(portWith(new InProcessCleverPort(cloud), capabilities, seen));
  sessions.push(session);
  session.config.createRoute({ appId: app.id, ownerId: org.id });
  await clock.advance(5 * SECOND);
  return { session, appId: app.id, seen };
}

describe('what a session asks of its Clever Cloud port', () => {
  it('follows the access logs and the event socket of a port that offers them', async () => {
    const { session, appId, seen } = await accountSession({ accessLogs: true, eventSocket: true });
    expect(seen.streams).toContain(appId);
    expect(session.traffic.appTraffic(appId).accessLog).not.toBeNull();
    expect(seen.sockets).toBe(1);
  });

  it('leaves the event socket closed when the port says these credentials cannot open it', async () => {
    const { seen } = await accountSession({ accessLogs: true, eventSocket: false });
    expect(seen.sockets).toBe(0);
  });

  it('runs on the calls alone when the port has neither', async () => {
    const { session, appId, seen } = await accountSession({ accessLogs: false, eventSocket: null });
    expect(session.engine.get(appId)?.state).toBe('Up');
    expect(session.traffic.appTraffic(appId).accessLog).toBeNull();
    expect(seen).toEqual({ streams: [], sockets: 0 });
  });
});
