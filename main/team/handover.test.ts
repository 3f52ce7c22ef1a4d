/**
 * An operator's action handed to another instance is answered by its outcome only: the history
 * entry of its kind for that app (or the app removed, for a release), and times out otherwise.
 */
import { describe, expect, it } from 'vitest';
import type { HistoryEntry } from '../../shared/domain.ts';
import type { EngineEvent, EngineListener, HandedRequest } from '../engine/engine.ts';
import { isOutcome, outcomeOf } from './handover.ts';

const entry = (appId: string, kind: HistoryEntry['kind']): EngineEvent => ({
  type: 'history',
  entry: { appId, at: 0, kind, from: null, to: null, actor: 'operator', reason: '' },
});

describe('handed actions', () => {
  it('each action is answered by its own entry for its app, a release by the app removed too', () => {
    const keep = { kind: 'keepAwake', until: null } as const;
    expect(isOutcome('app_1', keep, entry('app_1', 'keep-awake'))).toBe(true);
    expect(isOutcome('app_1', keep, entry('app_2', 'keep-awake'))).toBe(false);
    expect(isOutcome('app_1', keep, entry('app_1', 'reset'))).toBe(false);
    expect(isOutcome('app_1', { kind: 'reset' }, entry('app_1', 'reset'))).toBe(true);
    expect(isOutcome('app_1', { kind: 'release' }, entry('app_1', 'release'))).toBe(true);
    expect(isOutcome('app_1', { kind: 'release' }, { type: 'removed', appId: 'app_1' })).toBe(true);
    expect(isOutcome('app_1', { kind: 'reset' }, { type: 'removed', appId: 'app_1' })).toBe(false);
  });

  it('resolves on the outcome (listening stops), rejects with a clear message when none comes', async () => {
    const listeners = new Set<EngineListener>();
    const on = (l: EngineListener) => {
      listeners.add(l);
      return () => listeners.delete(l);
    };
    const request: HandedRequest = {
      appId: 'app_1',
      ownerId: 'orga_1',
      name: 'shop',
      source: 'dashboard',
      at: 0,
      action: { kind: 'reset' },
      by: null,
    };
    const seen = outcomeOf(on, request);
    for (const l of listeners) l(entry('app_1', 'keep-awake'));
    expect(listeners.size).toBe(1);
    for (const l of [...listeners]) l(entry('app_1', 'reset'));
    await expect(seen).resolves.toBeUndefined();
    expect(listeners.size).toBe(0);
    await expect(outcomeOf(on, request, 10)).rejects.toThrow(
      'no instance confirmed it within 0.01 s: it waits in the datastore for the instance acting on shop',
    );
    expect(listeners.size).toBe(0);
  });
});
