/**
 * The gate of an in-process instance (team-engines.ts): what goes in and out of it (its calls, its
 * datastore round trips, its timers) passes here, so that a test can pause it (SIGSTOP: everything
 * waits until it is resumed) or kill it (SIGKILL: nothing more ever passes). Test-only.
 */
import type { ManualClock } from '../engine/clocks.ts';
import type { Clock, TimerHandle } from '../engine/ports.ts';

export type Life = 'live' | 'paused' | 'dead';

/** What passes in and out of one instance. */
export class Gate {
  life: Life = 'live';
  /** Operations on the wire now (not waiting at the gate). */
  active = 0;
  /** Pauses so far: an operation that sees it change was paused in its middle. */
  pauses = 0;
  private waiting: (() => void)[] = [];
  private frozen: (() => void)[] = [];
  /** A pause or a kill that lands when the `left`-th next crossing of the gate comes. */
  private armed: { what: 'pause' | 'kill'; left: number; atAsk: boolean } | null = null;
  private stopped: (() => void)[] = [];

  /** Resolves when the instance is paused or killed (a round under way then waits with it). */
  halted(): Promise<void> {
    if (this.life !== 'live') return Promise.resolve();
    return new Promise((resolve) => this.stopped.push(resolve));
  }

  /** Pause or kill the instance at its `crossings`-th next crossing (0: now), in the middle of its work. */
  arm(what: 'pause' | 'kill', crossings: number): void {
    if (this.life !== 'live') return;
    if (crossings <= 0) this[what]();
    else this.armed = { what, left: crossings, atAsk: false };
  }

  /**
   * Pause or kill the instance just after its next write that asks for a start or a stop committed,
   * before the answer reaches it (before the call: the gap fencing cannot close).
   */
  armAtAsk(what: 'pause' | 'kill'): void {
    if (this.life === 'live') this.armed = { what, left: 1, atAsk: true };
  }

  /** A write asking for a call just committed (the store's answer is on its way back). */
  asked(): void {
    if (this.armed?.atAsk && this.life === 'live') {
      const { what } = this.armed;
      this.armed = null;
      this[what]();
    }
  }

  get isArmed(): boolean {
    return this.armed !== null;
  }

  pass(): Promise<void> {
    if (this.armed && !this.armed.atAsk && this.life === 'live' && --this.armed.left <= 0) {
      const { what } = this.armed;
      this.armed = null;
      this[what]();
    }
    if (this.life === 'live') return Promise.resolve();
    // Dead: never resolves (the process is gone).
    return new Promise((resolve) => {
      if (this.life === 'paused') this.waiting.push(resolve);
    });
  }

  /** One round trip: out through the gate, on the wire, back through the gate. */
  async run<T>(fn: () => Promise<T>): Promise<T> {
    await this.pass();
    this.active++;
    let result: { ok: true; value: T } | { ok: false; error: unknown };
    try {
      result = { ok: true, value: await fn() };
    } catch (error) {
      result = { ok: false, error };
    } finally {
      this.active--;
    }
    await this.pass();
    if (!result.ok) throw result.error;
    return result.value;
  }

  timer(fn: () => void): void {
    if (this.life === 'live') fn();
    else if (this.life === 'paused') this.frozen.push(fn);
  }

  pause(): void {
    if (this.life !== 'live') return;
    this.life = 'paused';
    this.pauses++;
    for (const resolve of this.stopped.splice(0)) resolve();
  }

  resume(): void {
    this.armed = null;
    if (this.life !== 'paused') return;
    this.life = 'live';
    for (const resolve of this.waiting.splice(0)) resolve();
    for (const fn of this.frozen.splice(0)) fn();
  }

  kill(): void {
    this.armed = null;
    this.life = 'dead';
    this.waiting = [];
    this.frozen = [];
    for (const resolve of this.stopped.splice(0)) resolve();
  }
}

/** The shared manual clock seen through an instance's gate. */
export class GatedClock implements Clock {
  private readonly inner: ManualClock;
  private readonly gate: Gate;
  constructor(inner: ManualClock, gate: Gate) {
    this.inner = inner;
    this.gate = gate;
  }
  now(): number {
    return this.inner.now();
  }
  setTimeout(fn: () => void, ms: number): TimerHandle {
    const handle = { id: 0, cancelled: false, inner: null as TimerHandle | null };
    handle.inner = this.inner.setTimeout(
      () =>
        this.gate.timer(() => {
          if (!handle.cancelled) fn();
        }),
      ms,
    );
    return handle;
  }
  clearTimeout(handle: TimerHandle): void {
    const h = handle as unknown as { cancelled: boolean; inner: TimerHandle | null };
    h.cancelled = true;
    if (h.inner) this.inner.clearTimeout(h.inner);
  }
}
