/**
 * How long an app's starts and stops take, from its history: the median and the worst of the last
 * 20. The app details show both; the waking page tells a visitor the median start ("usually ready in
 * about ..."): give the wake proxy `expectedWakeMs: (appId) => service.expectedWakeMs(appId)`.
 */
import { DURATION_SAMPLE, summarizeDurations, type TransitionDurations } from '../../shared/history.ts';
import type { ReaperStore } from '../store/contract.ts';
import type { Datastore } from '../store/datastore.ts';

export function transitionDurationsOf(store: Datastore, appId: string): TransitionDurations {
  return {
    start: summarizeDurations(store.transitionDurations(appId, 'start', DURATION_SAMPLE)),
    stop: summarizeDurations(store.transitionDurations(appId, 'stop', DURATION_SAMPLE)),
  };
}

/** The median of the app's last 20 starts, or null before its first. */
export function expectedWakeMs(store: Datastore, appId: string): number | null {
  return summarizeDurations(store.transitionDurations(appId, 'start', DURATION_SAMPLE)).medianMs;
}

/** The same, from any datastore of the contract (PostgreSQL). */
export async function transitionDurationsFrom(
  store: ReaperStore,
  appId: string,
): Promise<TransitionDurations> {
  const [start, stop] = await Promise.all([
    store.transitionDurations(appId, 'start', DURATION_SAMPLE),
    store.transitionDurations(appId, 'stop', DURATION_SAMPLE),
  ]);
  return { start: summarizeDurations(start), stop: summarizeDurations(stop) };
}

/**
 * expectedWakeMs for a datastore that answers later: the waking page asks synchronously, so it gets
 * the last figure read (null before the first), read again in the background when a minute old.
 */
export function cachedExpectedWakeMs(store: ReaperStore, now: () => number = Date.now) {
  const cache = new Map<string, { ms: number | null; at: number; reading: boolean }>();
  return (appId: string): number | null => {
    const entry = cache.get(appId) ?? { ms: null, at: Number.NEGATIVE_INFINITY, reading: false };
    cache.set(appId, entry);
    if (!entry.reading && now() - entry.at > 60_000) {
      entry.reading = true;
      store
        .transitionDurations(appId, 'start', DURATION_SAMPLE)
        .then((ms) => {
          entry.ms = summarizeDurations(ms).medianMs;
          entry.at = now();
        })
        .catch(() => {})
        .finally(() => {
          entry.reading = false;
        });
    }
    return entry.ms;
  };
}
