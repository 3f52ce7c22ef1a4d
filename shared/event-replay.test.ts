import { describe, expect, it } from 'vitest';
import { EventReplay } from './event-replay.ts';

describe('a snapshot, then the events by sequence', () => {
  it('gives back the events heard while the snapshot was on its way that it does not include', () => {
    const replay = new EventReplay<string>();
    const ticket = replay.begin();
    replay.heard('a', 10);
    replay.heard('b', 11);
    replay.heard('c', 12);
    expect(replay.arrived(ticket, 11)).toEqual([{ event: 'c', seq: 12 }]);
  });

  it('always gives back an event of the shell (number 0), which no snapshot includes', () => {
    const replay = new EventReplay<string>();
    const ticket = replay.begin();
    replay.heard('show', 0);
    replay.heard('old', 3);
    expect(replay.arrived(ticket, 5)).toEqual([{ event: 'show', seq: 0 }]);
  });

  it('keeps no events when no snapshot is on its way', () => {
    const replay = new EventReplay<string>();
    replay.heard('before', 1);
    const ticket = replay.begin();
    replay.heard('during', 2);
    expect(replay.arrived(ticket, 0)).toEqual([{ event: 'during', seq: 2 }]);
    replay.heard('after', 3);
    const next = replay.begin();
    expect(replay.arrived(next, 3)).toEqual([]);
  });

  it('drops a snapshot overtaken by a later one, and gives the later one every event heard', () => {
    const replay = new EventReplay<string>();
    const first = replay.begin();
    replay.heard('a', 1);
    const second = replay.begin();
    replay.heard('b', 2);
    expect(replay.arrived(first, 0)).toBeNull();
    expect(replay.failed(first)).toBe(false);
    expect(replay.arrived(second, 0)).toEqual([{ event: 'b', seq: 2 }]);
  });

  it('tells a failure of the current snapshot, and stops keeping events', () => {
    const replay = new EventReplay<string>();
    const ticket = replay.begin();
    replay.heard('a', 1);
    expect(replay.failed(ticket)).toBe(true);
    const next = replay.begin();
    expect(replay.arrived(next, 0)).toEqual([]);
  });

  it('skips an event the state already includes, from the snapshot or applied since', () => {
    const replay = new EventReplay<string>();
    const ticket = replay.begin();
    replay.arrived(ticket, 10);
    expect(replay.fresh(9)).toBe(false);
    expect(replay.fresh(10)).toBe(false);
    expect(replay.fresh(11)).toBe(true);
    expect(replay.fresh(11)).toBe(false);
    expect(replay.fresh(0)).toBe(true);
    expect(replay.fresh(0)).toBe(true);
  });

  it('follows a restarted sequence down with the next snapshot', () => {
    const replay = new EventReplay<string>();
    expect(replay.fresh(50)).toBe(true);
    expect(replay.fresh(2)).toBe(false);
    const ticket = replay.begin();
    replay.heard('restarted', 2);
    expect(replay.arrived(ticket, 1)).toEqual([{ event: 'restarted', seq: 2 }]);
    expect(replay.fresh(2)).toBe(true);
    expect(replay.fresh(3)).toBe(true);
  });
});
