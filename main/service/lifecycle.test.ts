/**
 * The lifecycle of a session's parts: stopping is the mirror of starting, each stop awaited; a part
 * whose stop fails is reported and the others still stop; a start that fails stops what started.
 */
import { describe, expect, it } from 'vitest';
import type { Log } from '../../shared/log.ts';
import { Lifecycle } from './lifecycle.ts';

function recorder() {
  const events: string[] = [];
  const lines: string[] = [];
  const log: Log = (level, message) => lines.push(`${level}: ${message}`);
  /** A part whose start and stop take a turn of the event loop each (so that awaiting matters). */
  const part = (name: string, fail?: 'start' | 'stop') => ({
    start: async () => {
      await new Promise((r) => setImmediate(r));
      if (fail === 'start') throw new Error(`${name} cannot start`);
      events.push(`start ${name}`);
      return name;
    },
    stop: async (started: string) => {
      events.push(`stopping ${started}`);
      await new Promise((r) => setImmediate(r));
      if (fail === 'stop') throw new Error(`${name} is stuck`);
      events.push(`stopped ${started}`);
    },
  });
  return { events, lines, log, part };
}

describe('Lifecycle', () => {
  it('stops the parts last started first, each stop ended before the next begins', async () => {
    const { events, log, part } = recorder();
    const life = new Lifecycle(log);
    life.started('store', async () => {
      events.push('stopped store');
    });
    for (const name of ['bus', 'engine', 'keeper']) {
      const p = part(name);
      expect(await life.start(name, p.start, p.stop)).toBe(name);
    }
    expect(life.running()).toEqual(['store', 'bus', 'engine', 'keeper']);
    expect(await life.stop()).toEqual([]);
    expect(events).toEqual([
      'start bus',
      'start engine',
      'start keeper',
      'stopping keeper',
      'stopped keeper',
      'stopping engine',
      'stopped engine',
      'stopping bus',
      'stopped bus',
      'stopped store',
    ]);
    expect(life.running()).toEqual([]);
  });

  it('a stop that fails is reported, and the parts started before it still stop', async () => {
    const { events, lines, log, part } = recorder();
    const life = new Lifecycle(log);
    for (const [name, fail] of [['bus'], ['engine', 'stop'], ['traffic', 'stop'], ['keeper']] as const) {
      const p = part(name, fail);
      await life.start(name, p.start, p.stop);
    }
    const failures = await life.stop();
    expect(failures.map((f) => [f.part, (f.error as Error).message])).toEqual([
      ['traffic', 'traffic is stuck'],
      ['engine', 'engine is stuck'],
    ]);
    expect(events.filter((e) => e.startsWith('stopped'))).toEqual(['stopped keeper', 'stopped bus']);
    expect(lines).toEqual([
      'error: traffic did not stop cleanly: traffic is stuck',
      'error: engine did not stop cleanly: engine is stuck',
    ]);
    // Stopping again answers the same stop: nothing is stopped twice.
    expect(await life.stop()).toBe(failures);
    expect(events.filter((e) => e === 'stopped keeper')).toHaveLength(1);
  });

  it('a start that fails stops the parts already started, then rejects with its error', async () => {
    const { events, log, part } = recorder();
    const life = new Lifecycle(log);
    const bus = part('bus');
    const engine = part('engine');
    const keeper = part('keeper', 'start');
    await life.start('bus', bus.start, bus.stop);
    await life.start('engine', engine.start, engine.stop);
    await expect(life.start('keeper', keeper.start, keeper.stop)).rejects.toThrow('keeper cannot start');
    expect(events).toEqual([
      'start bus',
      'start engine',
      'stopping engine',
      'stopped engine',
      'stopping bus',
      'stopped bus',
    ]);
    await expect(life.start('late', bus.start, bus.stop)).rejects.toThrow(
      'late cannot start: the session is stopping',
    );
  });

  it('a stop that throws at once (not a rejected promise) is reported like the others', async () => {
    const { lines, log } = recorder();
    const life = new Lifecycle(log);
    const stopped: string[] = [];
    life.started('first', async () => {
      stopped.push('first');
    });
    life.started('broken', () => {
      throw new Error('no such handle');
    });
    expect((await life.stop()).map((f) => f.part)).toEqual(['broken']);
    expect(stopped).toEqual(['first']);
    expect(lines).toEqual(['error: broken did not stop cleanly: no such handle']);
  });
});
