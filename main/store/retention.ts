/**
 * History retention: entries older than the setting (`historyRetentionDays`, 180 by default) are
 * deleted on a timer of their own, never in the job's path, a small batch at a time with a pause
 * between batches, so the engine's writes and the dashboard's reads go on in between.
 *
 * Team mode (several instances on one PostgreSQL): `exclusive` lets one instance only prune
 * (postgres/retention-lock.ts); the others skip their run. Without it (SQLite), every run prunes.
 */
import { DAY, HOUR, SECOND } from '../../shared/durations.ts';
import { describeError, type Log } from '../../shared/log.ts';
import type { ReaperStore } from './contract.ts';

export interface RetentionOptions {
  /** The session's datastore (the contract's `deleteHistoryBefore`). */
  store: Pick<ReaperStore, 'deleteHistoryBefore'>;
  /** The engine's clock: the age of an entry is counted on it. */
  now: () => number;
  retentionDays: () => number;
  /** Rows per DELETE. */
  batchSize?: number;
  /** Real time between two batches. */
  pauseMs?: number;
  /** Real time between two runs, and before the first. */
  everyMs?: number;
  firstAfterMs?: number;
  /** Team mode: runs a run while this instance is the one that prunes, else answers null (skipped). */
  exclusive?: <T>(run: () => Promise<T>) => Promise<T | null>;
  log?: Log;
}

export class HistoryRetention {
  private readonly options: RetentionOptions;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private running: Promise<number> | null = null;
  private stopped = false;
  /** Runs skipped because another instance prunes (team mode). */
  skipped = 0;

  constructor(options: RetentionOptions) {
    this.options = options;
  }

  /** Run now and then every `everyMs` (default: an hour), after `firstAfterMs` (default: 10 s). */
  start(): void {
    this.schedule(this.options.firstAfterMs ?? 10 * SECOND);
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      const next = () => this.schedule(this.options.everyMs ?? HOUR);
      this.runOnce().then(next, (error: unknown) => {
        this.options.log?.('warn', `the history retention failed: ${describeError(error)}`);
        next();
      });
    }, ms);
    this.timer.unref?.();
  }

  /** Delete what is past retention; resolves with the number of entries deleted. One run at a time. */
  runOnce(): Promise<number> {
    this.running ??= this.run().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async run(): Promise<number> {
    const { exclusive } = this.options;
    if (!exclusive) return this.prune();
    try {
      const deleted = await exclusive(() => this.prune());
      if (deleted === null) {
        this.skipped++;
        this.options.log?.('info', 'history retention: another instance prunes, skipped here');
      }
      return deleted ?? 0;
    } catch (error) {
      this.options.log?.('warn', `the history retention could not run: ${describeError(error)}`);
      return 0;
    }
  }

  private async prune(): Promise<number> {
    const { batchSize = 500, pauseMs = 5 } = this.options;
    const cutoff = this.options.now() - this.options.retentionDays() * DAY;
    let deleted = 0;
    try {
      while (!this.stopped) {
        // A closed store answers 0 (SQLite) or rejects (PostgreSQL): either way the run ends.
        const changes = await this.options.store.deleteHistoryBefore(cutoff, batchSize);
        deleted += changes;
        if (changes < batchSize) break;
        await new Promise((resolve) => setTimeout(resolve, pauseMs));
      }
    } catch (error) {
      this.options.log?.(
        'warn',
        `the history retention could not delete old entries: ${describeError(error)}`,
      );
    }
    if (deleted)
      this.options.log?.('info', `history retention: ${deleted} entries older than the cutoff deleted`);
    return deleted;
  }

  /** Stop the timer; a run under way ends after its current batch. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }
}
