/**
 * Readiness, for platforms and load balancers (`GET /readyz`): a list of named checks, each
 * answering null (fine) or a one-word reason; the first reason found is the answer. A check that
 * throws, or takes longer than the timeout, answers its own name.
 *
 * The checks of a headless server (serviceChecks): an engine runs (a session is open and its engine
 * started), and its datastore answers a trivial query and accepts writes. The extension point is
 * `HeadlessOptions.readinessChecks`: team mode adds `leasesCheck` there (a server with --database).
 *
 * The leases' check (team mode on PostgreSQL): the database answers, this instance's heartbeat is
 * within a lease time ("heartbeat" otherwise), and it holds leases or waits for its share for a
 * reason that passes ("leases" otherwise: owners are free and it does not take them). The reason in
 * words is in the log, each time it changes (team/lease-keeper.ts, `LeaseKeeper.readiness`, judged
 * by team/lease-rules.ts). It is not ready either before the first round that ended after a pause
 * longer than a lease time (a resumed ex-holder), nor while the instances' bus does not listen
 * ("bus": it would not hear the requests handed to it).
 *
 * `GET /healthz` needs none of this: it answers while the process serves HTTP.
 */
import type { ReaperService } from '../service/reaper-service.ts';

/** A one-word reason the server is not ready, or null. */
export type ReadinessAnswer = string | null;

export interface ReadinessCheck {
  /** One word, answered when the check throws or times out. */
  name: string;
  run(): Promise<ReadinessAnswer>;
}

/** How long a check may take before it counts as failed. */
export const CHECK_TIMEOUT_MS = 2000;

/** The first reason of the checks, in order; null when every check passes. */
export async function readiness(
  checks: readonly ReadinessCheck[],
  timeoutMs = CHECK_TIMEOUT_MS,
): Promise<ReadinessAnswer> {
  for (const check of checks) {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<ReadinessAnswer>((resolve) => {
      timer = setTimeout(() => resolve(check.name), timeoutMs);
    });
    let answer: ReadinessAnswer;
    try {
      answer = await Promise.race([Promise.resolve().then(() => check.run()), late]);
    } catch {
      answer = check.name;
    } finally {
      clearTimeout(timer);
    }
    if (answer !== null) return oneWord(answer, check.name);
  }
  return null;
}

/** A reason is one lowercase word (it goes in a response body that monitors match on). */
function oneWord(answer: string, fallback: string): string {
  return /^[a-z][a-z-]{0,31}$/.test(answer) ? answer : fallback;
}

/** The engine runs, and its datastore answers and takes writes. */
export function serviceChecks(service: Pick<ReaperService, 'current'>): ReadinessCheck[] {
  return [
    {
      name: 'engine',
      // No session: no account connected yet (the dashboard's first-run screen), so nothing is reaped.
      run: async () => {
        const session = service.current;
        if (!session) return 'disconnected';
        return session.engine.isRunning ? null : 'engine';
      },
    },
    {
      name: 'datastore',
      run: async () => {
        const session = service.current;
        if (!session) return null;
        await session.store.schemaVersion(); // a query on either datastore (SQLite, PostgreSQL)
        // The engine met a write the datastore refused (a full disk, a read-only file): not ready.
        return session.engine.storage === null ? null : 'datastore';
      },
    },
    {
      name: 'wake-proxy',
      // Routes want the wake proxy and it cannot listen where the settings say (a port taken...).
      run: async () => (service.current?.traffic.proxyStatus().problem ? 'wake-proxy' : null),
    },
  ];
}

/**
 * Team mode: the leases of the session's keeper (leases.ts). No keeper (SQLite, the demo, no session
 * yet): nothing to say, the checks above answer.
 */
export function leasesCheck(service: Pick<ReaperService, 'current'>): ReadinessCheck {
  return {
    name: 'leases',
    run: async () => {
      const keeper = service.current?.leases;
      if (!keeper) return null;
      const word = (await keeper.readiness()).word;
      if (word) return word;
      // The bus tells this instance of the others' changes and of the requests handed to it.
      return service.current?.bus && !service.current.bus.listening ? 'bus' : null;
    },
  };
}
