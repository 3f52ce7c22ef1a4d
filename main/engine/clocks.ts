/**
 * Clocks for the engine: the system clock, a manual clock for tests (time moves only when told),
 * and a scaled clock (time runs N times faster, from a fixed origin) shared by the engine and the
 * simulator in demos, end-to-end tests and across processes.
 */
import { outsideActing } from './acting.ts';
import type { Clock, TimerHandle } from './ports.ts';

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => {
    const t = setTimeout(outsideActing(fn), ms);
    t.unref?.();
    return t;
  },
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

/**
 * Time runs `factor` times faster than real time. Two processes given the same origin and factor
 * agree on the time, so a restarted engine and a simulator in another process share one timeline.
 */
export class ScaledClock implements Clock {
  readonly factor: number;
  private readonly realOrigin: number;
  private readonly fakeOrigin: number;

  constructor(
    factor: number,
    origin: { real: number; fake: number } = { real: Date.now(), fake: Date.now() },
  ) {
    if (!(factor > 0)) throw new Error('the time scale must be a positive number');
    this.factor = factor;
    this.realOrigin = origin.real;
    this.fakeOrigin = origin.fake;
  }

  now(): number {
    return Math.floor(this.fakeOrigin + (Date.now() - this.realOrigin) * this.factor);
  }

  setTimeout(fn: () => void, ms: number): TimerHandle {
    const t = setTimeout(outsideActing(fn), Math.max(0, ms / this.factor));
    t.unref?.();
    return t;
  }

  clearTimeout(handle: TimerHandle): void {
    clearTimeout(handle as ReturnType<typeof setTimeout>);
  }
}

interface ManualTimer {
  id: number;
  at: number;
  fn: () => void;
}

/**
 * Time stands still until a test moves it. `advance` fires due timers in order, letting promises
 * settle between them, so an engine driven by it behaves as it would over that much real time.
 */
export class ManualClock implements Clock {
  private current: number;
  private timers: ManualTimer[] = [];
  private nextId = 1;

  constructor(start: number) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  setTimeout(fn: () => void, ms: number): TimerHandle {
    const timer = { id: this.nextId++, at: this.current + Math.max(0, ms), fn: outsideActing(fn) };
    this.timers.push(timer);
    return { id: timer.id };
  }

  clearTimeout(handle: TimerHandle): void {
    const id = (handle as { id: number }).id;
    this.timers = this.timers.filter((t) => t.id !== id);
  }

  /** Move time forward by `ms`, firing every timer due on the way. */
  async advance(ms: number): Promise<void> {
    await this.advanceTo(this.current + ms);
  }

  async advanceTo(target: number): Promise<void> {
    await settle();
    for (;;) {
      const next = this.timers.filter((t) => t.at <= target).sort((a, b) => a.at - b.at || a.id - b.id)[0];
      if (!next) break;
      this.timers = this.timers.filter((t) => t !== next);
      this.current = Math.max(this.current, next.at);
      next.fn();
      await settle();
    }
    this.current = Math.max(this.current, target);
    await settle();
  }

  get pendingTimers(): number {
    return this.timers.length;
  }
}

/** Let every queued promise continuation and I/O callback run. */
export async function settle(rounds = 5): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}
