/**
 * Which of the six causes of the lifecycle spec an Error cause is: the inverse of CAUSES, so the
 * dashboard can explain a cause while the cause itself stays word for word (history, API).
 */
import { CAUSES } from './domain.ts';

export type CauseKind =
  | { kind: 'stopTimeout' }
  | { kind: 'startTimeout' }
  | { kind: 'startFailed' }
  | { kind: 'unsafeLastDeployment'; deploymentState: string }
  | { kind: 'neverDeployed' }
  | { kind: 'unexpectedState'; cleverState: string }
  | { kind: 'unknown' };

/** The value between the two parts of a one-parameter cause, or null when `cause` is not of it. */
function between(cause: string, template: (value: string) => string): string | null {
  const marker = '\u0000';
  const [head, tail] = template(marker).split(marker) as [string, string];
  if (!cause.startsWith(head) || !cause.endsWith(tail) || cause.length < head.length + tail.length)
    return null;
  return cause.slice(head.length, cause.length - tail.length);
}

export function causeKind(cause: string | null): CauseKind {
  if (cause === null) return { kind: 'unknown' };
  if (cause === CAUSES.stopTimeout) return { kind: 'stopTimeout' };
  if (cause === CAUSES.startTimeout) return { kind: 'startTimeout' };
  if (cause === CAUSES.startFailed) return { kind: 'startFailed' };
  // The history's reason may add the error after the cause: "... cannot be started (...)".
  if (cause.startsWith(CAUSES.neverDeployed)) return { kind: 'neverDeployed' };
  const deploymentState = between(cause, CAUSES.unsafeLastDeployment);
  if (deploymentState !== null) return { kind: 'unsafeLastDeployment', deploymentState };
  const cleverState = between(cause, CAUSES.unexpectedState);
  if (cleverState !== null) return { kind: 'unexpectedState', cleverState };
  return { kind: 'unknown' };
}
