import { describeError, type Log } from '../../shared/log.ts';

/**
 * A request the engine could not record (the datastore refused the write: a full disk, a read-only
 * folder): the traffic source carries on (the wake proxy passes the request through, as for an app in
 * Error) and says so once per episode, not once per request; the episode ends with the first request
 * recorded once the engine's writes work again. The engine itself announces the storage problem
 * (banner, log, metric).
 */
export class RefusedRequests {
  private problem: string | null = null;
  private readonly what: string;
  private readonly log: Log | undefined;
  private readonly writable: () => boolean;
  /** Refused requests of the current episode, for tests and the log. */
  refused = 0;

  /** `writable`: whether the engine's last write went through (a request may need no write). */
  constructor(what: string, writable: () => boolean, log?: Log) {
    this.what = what;
    this.writable = writable;
    this.log = log;
  }

  /** Bound, so the hot path allocates no closure: `engine.request(...).then(r.recorded, r.failed)`. */
  readonly recorded = (): void => {
    if (this.problem === null || !this.writable()) return;
    this.log?.('info', `${this.what}: requests are recorded again (${this.refused} were not)`);
    this.problem = null;
    this.refused = 0;
  };

  readonly failed = (error: unknown): void => {
    this.refused++;
    const problem = describeError(error);
    if (problem === this.problem) return;
    this.problem = problem;
    this.log?.('warn', `${this.what}: a request could not be recorded (${problem}); serving on`);
  };

  /** The engine's answer to a request: true when recorded, false when refused (never rejects). */
  settle(asking: Promise<unknown>): Promise<boolean> {
    return asking.then(
      () => {
        this.recorded();
        return true;
      },
      (error: unknown) => {
        this.failed(error);
        return false;
      },
    );
  }
}
