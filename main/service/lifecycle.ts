/**
 * The lifecycle of what a session composes (compose.ts): each part is started in turn and, once
 * started, noted with its stop; stopping is the mirror of starting: the parts stop last first, each
 * stop awaited, and a stop that fails is reported (logged, and in the answer) while the others still
 * stop. A start that fails stops what was already started, and rejects with its error.
 */
import { describeError, type Log } from '../../shared/log.ts';

/** A stop that failed: the part's name and the error. */
export interface StopFailure {
  part: string;
  error: unknown;
}

export class Lifecycle {
  private readonly parts: { name: string; stop: () => Promise<void> }[] = [];
  private readonly log: Log | undefined;
  private stopping: Promise<StopFailure[]> | null = null;

  constructor(log?: Log) {
    this.log = log;
  }

  /**
   * Start a part (awaited) and note its stop. When the start fails, the parts started before are
   * stopped (their failures reported) and the start's error is rethrown.
   */
  async start<T>(name: string, start: () => Promise<T>, stop: (part: T) => Promise<void>): Promise<T> {
    if (this.stopping) throw new Error(`${name} cannot start: the session is stopping`);
    let part: T;
    try {
      part = await start();
    } catch (error) {
      await this.stop();
      throw error;
    }
    this.parts.push({ name, stop: () => stop(part) });
    return part;
  }

  /** Note the stop of something already running (a subscription, a store opened before). */
  started(name: string, stop: () => Promise<void>): void {
    this.parts.push({ name, stop });
  }

  /** The names of the parts running, in the order they started. */
  running(): string[] {
    return this.parts.map((p) => p.name);
  }

  /**
   * Stop every part, last started first, each awaited. A stop that fails is logged and answered;
   * the others still stop. Called again, answers the same stop.
   */
  stop(): Promise<StopFailure[]> {
    this.stopping ??= this.stopAll();
    return this.stopping;
  }

  private async stopAll(): Promise<StopFailure[]> {
    const failures: StopFailure[] = [];
    for (let part = this.parts.pop(); part; part = this.parts.pop()) {
      try {
        await part.stop();
      } catch (error) {
        failures.push({ part: part.name, error });
        this.log?.('error', `${part.name} did not stop cleanly: ${describeError(error)}`);
      }
    }
    return failures;
  }
}
