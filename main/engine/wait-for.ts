/** Waiting for an app to reach a state, on the engine's events and its clock. */
import type { AppRecord, ReaperState } from '../../shared/domain.ts';
import type { EngineListener } from './core.ts';
import type { Clock } from './ports.ts';

/** Resolves when the app reaches one of `states`, or rejects after `timeoutMs` of `clock` time. */
export function waitForState(
  on: (listener: EngineListener) => () => void,
  clock: Clock,
  appId: string,
  current: AppRecord | undefined,
  states: readonly ReaperState[],
  timeoutMs: number,
): Promise<AppRecord> {
  if (current && states.includes(current.state)) return Promise.resolve(current);
  return new Promise((resolve, reject) => {
    const timer = clock.setTimeout(() => {
      off();
      reject(
        new Error(`the app did not reach ${states.join(' or ')} within ${Math.round(timeoutMs / 1000)} s`),
      );
    }, timeoutMs);
    const off = on((e) => {
      if (e.type === 'app' && e.record.appId === appId && states.includes(e.record.state)) {
        off();
        clock.clearTimeout(timer);
        resolve(e.record);
      } else if (e.type === 'removed' && e.appId === appId) {
        off();
        clock.clearTimeout(timer);
        reject(new Error('the app was released'));
      }
    });
  });
}
