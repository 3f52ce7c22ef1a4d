import { describe, expect, it } from 'vitest';
import {
  KNOWN_CLEVER_STATES,
  KNOWN_DEPLOYMENT_STATES,
  narrowCleverState,
  narrowDeploymentState,
} from './domain.ts';

describe('closed vocabularies narrowed at the boundary', () => {
  it.each(KNOWN_CLEVER_STATES)('Clever Cloud state %s is known', (state) => {
    expect(narrowCleverState(state)).toEqual({ state });
  });

  it('a Clever Cloud state the list does not hold is unknown, its raw text kept', () => {
    expect(narrowCleverState('SOMETHING_NEW')).toEqual({ state: 'unknown', raw: 'SOMETHING_NEW' });
    expect(narrowCleverState('should_be_up')).toEqual({ state: 'unknown', raw: 'should_be_up' });
    expect(narrowCleverState('')).toEqual({ state: 'unknown', raw: '' });
  });

  it.each(KNOWN_DEPLOYMENT_STATES)('deployment state %s is known', (state) => {
    expect(narrowDeploymentState(state)).toEqual({ state });
  });

  it('a deployment state the list does not hold is unknown, its raw text kept', () => {
    expect(narrowDeploymentState('QUEUED')).toEqual({ state: 'unknown', raw: 'QUEUED' });
  });

  it('the known values are shared and cannot be changed', () => {
    const seen = narrowCleverState('SHOULD_BE_UP');
    expect(narrowCleverState('SHOULD_BE_UP')).toBe(seen);
    expect(Object.isFrozen(seen)).toBe(true);
  });
});
