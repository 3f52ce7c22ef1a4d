/** The events kept for a stream that opens after its page's snapshot (event-backlog.ts). */
import { describe, expect, it } from 'vitest';
import type { ReaperEvent } from '../../shared/api.ts';
import { EventBacklog } from './event-backlog.ts';

const status = (n: number) => ({ type: 'clock', now: n, timeScale: 1 }) as ReaperEvent;

describe('the event backlog', () => {
  it('gives the events after a snapshot, in order; none when nothing came after it', () => {
    const backlog = new EventBacklog(10);
    for (let seq = 1; seq <= 5; seq++) backlog.push(status(seq), seq);
    backlog.push(status(0), 0);
    expect(backlog.after(3)?.map((e) => e.seq)).toEqual([4, 5]);
    expect(backlog.after(5)).toEqual([]);
    expect(backlog.after(0)?.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5]);
  });

  it('says when it no longer reaches back that far (the page then asks for a snapshot)', () => {
    const backlog = new EventBacklog(4);
    for (let seq = 1; seq <= 20; seq++) backlog.push(status(seq), seq);
    expect(backlog.after(2)).toBeNull();
    expect(backlog.after(18)?.map((e) => e.seq)).toEqual([19, 20]);
    expect(backlog.after(Number.NaN)).toBeNull();
  });

  it('starts again with a sequence that starts again', () => {
    const backlog = new EventBacklog(10);
    for (let seq = 1; seq <= 6; seq++) backlog.push(status(seq), seq);
    backlog.push(status(1), 1);
    backlog.push(status(2), 2);
    expect(backlog.after(0)?.map((e) => e.seq)).toEqual([1, 2]);
  });
});
