/**
 * Team mode's lease policy as rules: the share an instance holds, what it gives back (the same
 * answer on every round), and whether it is ready; every count of owners and instances up to 12,
 * with each instance holding anything from none to all.
 */
import { describe, expect, it } from 'vitest';
import { leaseReadiness, leaseShare, type ReadinessFacts } from './lease-rules.ts';

const owners = (n: number) => Array.from({ length: n }, (_, i) => `orga_${String(i).padStart(2, '0')}`);

describe('leaseShare', () => {
  it('holds ceil(owners / live instances): gives the extra back, takes up to the share', () => {
    for (let total = 0; total <= 12; total++) {
      for (let live = 0; live <= 12; live++) {
        const share = Math.ceil(total / Math.max(1, live));
        for (let held = 0; held <= total; held++) {
          // Held in an order of their own (newest first): what is given back does not depend on it.
          const mine = owners(held).reverse();
          const answer = leaseShare({ held: mine, total, live });
          expect(answer.share).toBe(share);
          // After the round it holds exactly its share (what it takes is free, or it takes less).
          expect(held - answer.giveBack.length + answer.take).toBe(share);
          expect(answer.giveBack.length > 0 && answer.take > 0).toBe(false);
          expect(answer.giveBack).toEqual(held > share ? owners(held).slice(share) : []);
        }
      }
    }
  });

  it('a new instance: the one holding everything gives back the last owners by id', () => {
    expect(leaseShare({ held: ['orga_c', 'orga_a', 'orga_b'], total: 3, live: 2 })).toEqual({
      share: 2,
      giveBack: ['orga_c'],
      take: 0,
    });
    expect(leaseShare({ held: [], total: 3, live: 2 })).toEqual({ share: 2, giveBack: [], take: 2 });
    // Its heartbeat not counted yet (live 0): read as alone, it takes every owner.
    expect(leaseShare({ held: [], total: 3, live: 0 })).toEqual({ share: 3, giveBack: [], take: 3 });
  });

  it('no owner: nothing to hold or take', () => {
    expect(leaseShare({ held: [], total: 0, live: 3 })).toEqual({ share: 0, giveBack: [], take: 0 });
  });
});

describe('leaseReadiness', () => {
  const base: ReadinessFacts = {
    running: true,
    sinceStartMs: 60_000,
    leaseMs: 15_000,
    age: 1000,
    total: 4,
    mine: 2,
    free: 0,
    live: 2,
  };
  it('is ready when it holds leases, with the counts in its reason', () => {
    expect(leaseReadiness(base)).toEqual({
      ready: true,
      word: null,
      reason: 'holds 2 of 4 owners (2 live instances)',
    });
  });
  it('is not ready when stopped, or when its heartbeat is missing or older than a lease time', () => {
    expect(leaseReadiness({ ...base, running: false })).toMatchObject({ ready: false, word: 'leases' });
    expect(leaseReadiness({ ...base, age: null })).toMatchObject({ ready: false, word: 'heartbeat' });
    expect(leaseReadiness({ ...base, age: 15_001 })).toEqual({
      ready: false,
      word: 'heartbeat',
      reason:
        'the last heartbeat is 15001 ms old, more than the lease time (15000 ms): its lease rounds fail',
    });
    // A heartbeat exactly a lease time old still counts.
    expect(leaseReadiness({ ...base, age: 15_000 }).ready).toBe(true);
  });
  it('waits for its share while every owner is held elsewhere, or it started less than a lease time ago', () => {
    expect(leaseReadiness({ ...base, total: 0, mine: 0 })).toMatchObject({
      ready: true,
      reason: 'no owner to hold yet',
    });
    expect(leaseReadiness({ ...base, mine: 0, free: 0 })).toMatchObject({ ready: true });
    expect(leaseReadiness({ ...base, mine: 0, free: 2, sinceStartMs: 14_999 })).toMatchObject({
      ready: true,
    });
    expect(leaseReadiness({ ...base, mine: 0, free: 2, sinceStartMs: 15_000 })).toEqual({
      ready: false,
      word: 'leases',
      reason: 'holds no lease while 2 of 4 owners are free: it does not take its share',
    });
  });
  it('a resumed ex-holder is not ready before its first round after the pause ends (issue 22)', () => {
    // Its heartbeat was just beaten by that round's first statement and every owner is held by
    // another instance: it would pass the checks above, but the round has not ended yet.
    const resumed = { ...base, mine: 0, free: 0, sinceRoundMs: 15_001 };
    expect(leaseReadiness(resumed)).toEqual({
      ready: false,
      word: 'leases',
      reason:
        'no lease round ended for 15001 ms, more than the lease time (15000 ms): paused, or its rounds fail; ready again after its next round',
    });
    expect(leaseReadiness({ ...resumed, sinceRoundMs: 15_000 }).ready).toBe(true);
    expect(leaseReadiness({ ...resumed, sinceRoundMs: null }).ready).toBe(true);
  });
});
