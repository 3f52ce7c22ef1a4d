import { describe, expect, it } from 'vitest';
import { causeKind } from './causes.ts';
import { CAUSES } from './domain.ts';

describe('causeKind', () => {
  it('reads back each of the six causes of the spec, with its value', () => {
    expect(causeKind(CAUSES.stopTimeout)).toEqual({ kind: 'stopTimeout' });
    expect(causeKind(CAUSES.startTimeout)).toEqual({ kind: 'startTimeout' });
    expect(causeKind(CAUSES.startFailed)).toEqual({ kind: 'startFailed' });
    expect(causeKind(CAUSES.neverDeployed)).toEqual({ kind: 'neverDeployed' });
    expect(causeKind(CAUSES.unsafeLastDeployment('CANCELLED'))).toEqual({
      kind: 'unsafeLastDeployment',
      deploymentState: 'CANCELLED',
    });
    expect(causeKind(CAUSES.unexpectedState('MODERATED'))).toEqual({
      kind: 'unexpectedState',
      cleverState: 'MODERATED',
    });
  });

  it("keeps a value with quotes in it, reads the history's longer never-deployed reason", () => {
    expect(causeKind(CAUSES.unexpectedState("it's odd"))).toEqual({
      kind: 'unexpectedState',
      cleverState: "it's odd",
    });
    expect(causeKind(`${CAUSES.neverDeployed} (4014 not deployed)`)).toEqual({ kind: 'neverDeployed' });
  });

  it('anything else is unknown', () => {
    expect(causeKind(null)).toEqual({ kind: 'unknown' });
    expect(causeKind('unknown cause')).toEqual({ kind: 'unknown' });
    expect(causeKind("unexpected clever cloud state 'X")).toEqual({ kind: 'unknown' });
  });
});
