/**
 * How long an app's starts and stops take, from its history: the median and the worst of the last
 * 20. The app details show both; the waking page tells a visitor the median start ("usually ready in
 * about ..."): give the wake proxy `expectedWakeMs: (appId) => service.expectedWakeMs(appId)`.
 */
import { DURATION_SAMPLE, summarizeDurations, type TransitionDurations } from '../../shared/history.ts';
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
