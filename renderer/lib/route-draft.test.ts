import { describe, expect, it } from 'vitest';
import { HOUR, MINUTE } from '../../shared/durations.ts';
import { effectiveRouting, type Route } from '../../shared/routes.ts';
import { combinedGrace, draftOf, graceMs, graceProblems } from './route-draft.ts';

const route = (id: string, gracePeriodMs: number, enabled = true): Route => ({
  id,
  appId: 'app_a',
  ownerId: 'orga_a',
  label: id,
  enabled,
  gracePeriodMs,
  ranges: [],
  hosts: [],
  filters: { pathPrefixes: [], sources: [] },
  createdAt: 0,
  updatedAt: 0,
});

describe('the route draft', () => {
  it('reads a decimal comma or point in the grace period, in the unit chosen', () => {
    expect(graceMs({ grace: '2,5', graceUnit: 'h' })).toBe(2.5 * HOUR);
    expect(graceMs({ grace: '1.5', graceUnit: 'min' })).toBe(90_000);
    expect(graceMs({ grace: 'soon', graceUnit: 'min' })).toBeNaN();
    expect(graceProblems({ grace: ' ' })).toMatchObject([{ field: 'gracePeriodMs', code: 'emptyNumber' }]);
    expect(graceProblems({ grace: '2 h' })).toMatchObject([{ code: 'notNumber', params: { value: '2 h' } }]);
    expect(graceProblems({ grace: '0,5' })).toEqual([]);
    expect(draftOf(route('r', 90 * MINUTE), null)).toMatchObject({ grace: '90', graceUnit: 'min' });
  });

  it('says which grace period wins as the engine combines an app’s routes (the longest enabled)', () => {
    const others = [route('a', HOUR), route('b', 3 * HOUR, false), route('c', 2 * HOUR)];
    expect(combinedGrace(30 * MINUTE, others)).toEqual({ ms: 2 * HOUR, from: others[2] });
    expect(combinedGrace(4 * HOUR, others)).toEqual({ ms: 4 * HOUR, from: null });
    expect(combinedGrace(2 * HOUR, others)).toEqual({ ms: 2 * HOUR, from: null });
    expect(combinedGrace(null, others)).toEqual({ ms: 2 * HOUR, from: others[2] });
    expect(combinedGrace(null, [route('b', HOUR, false)])).toBeNull();
    // The same answer as the engine's own combination.
    const all = [...others, route('draft', 30 * MINUTE)];
    expect(effectiveRouting(all).get('app_a')?.gracePeriodMs).toBe(combinedGrace(30 * MINUTE, others)?.ms);
  });
});
