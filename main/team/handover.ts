/**
 * Team mode: an operator's action (keep awake, reset, release) on an app whose owner another
 * instance acts on is handed to that instance (team-sync.ts publishes it on the bus), and answered
 * once its outcome reaches this one: the history entry the holder writes, or the app removed by a
 * release. The engine only asks (EngineDeps.handOver); this is how team mode answers.
 */
import { TimeoutError } from '../../shared/api-errors.ts';
import { isOutcome } from '../engine/core.ts';
import type { EngineListener, HandedRequest } from '../engine/engine.ts';

export { isOutcome };

/** How long an operator's action handed to another instance may take to be seen here (real ms). */
export const HANDED_ACTION_TIMEOUT_MS = 15_000;

/**
 * Resolves once the engine announces the request's outcome (listening from now on, so call it
 * before the request is sent); rejects after `timeoutMs` of real time. Aborted: it stops listening
 * and never settles (the caller answered otherwise).
 */
export function outcomeOf(
  on: (listener: EngineListener) => () => void,
  request: HandedRequest,
  timeoutMs = HANDED_ACTION_TIMEOUT_MS,
  signal?: AbortSignal,
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      off();
    });
    const off = on((e) => {
      if (!isOutcome(request.appId, request.action, e)) return;
      clearTimeout(timer);
      off();
      resolve();
    });
    const timer = setTimeout(() => {
      off();
      reject(
        new TimeoutError(
          `no instance confirmed it within ${timeoutMs / 1000} s: it waits in the datastore for the instance acting on ${request.name}`,
        ),
      );
    }, timeoutMs);
  });
}
