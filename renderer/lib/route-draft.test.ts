import { describe, expect, it } from 'vitest';
import { HOUR, MINUTE } from '../../shared/durations.ts';
import { effectiveRouting, type Route } from '../../shared/routes.ts';
import {
  combinedGrace,
  draftOf,
  fieldsOf,
  graceMs,
  graceProblems,
  typedDraftProblems,
} from './route-draft.ts';

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

  it('sends the connection fields once changed or saved, and the idle limit only while they keep it awake', () => {
    const plain = draftOf(route('r', HOUR), null);
    expect(plain.connections).toEqual({ keepAwake: true, idleLimit: '15' });
    expect(Object.keys(fieldsOf(plain))).not.toContain('connectionsKeepAwake');
    const longer = { ...plain, connections: { keepAwake: true, idleLimit: '2,5' } };
    expect(fieldsOf(longer)).toMatchObject({ connectionsKeepAwake: true, connectionIdleLimitMs: 150_000 });
    const off = { ...plain, connections: { keepAwake: false, idleLimit: 'never read' } };
    expect(fieldsOf(off)).toMatchObject({ connectionsKeepAwake: false });
    expect(Object.keys(fieldsOf(off))).not.toContain('connectionIdleLimitMs');
    expect(typedDraftProblems(off)).toEqual([]);
    // A saved route always sends them, defaults included.
    const saved = draftOf({ ...route('s', HOUR), connectionIdleLimitMs: 15 * MINUTE }, null);
    expect(fieldsOf(saved)).toMatchObject({ connectionsKeepAwake: true, connectionIdleLimitMs: 15 * MINUTE });
    // Numbers as typed: each problem on its field.
    const bad = {
      ...plain,
      front: { ...plain.front, readyDelay: 'soon' },
      connections: { keepAwake: true, idleLimit: ' ' },
    };
    expect(typedDraftProblems(bad)).toMatchObject([
      { field: 'readyDelayMs', code: 'notNumber', params: { value: 'soon' } },
      { field: 'connectionIdleLimitMs', code: 'emptyNumber' },
    ]);
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
