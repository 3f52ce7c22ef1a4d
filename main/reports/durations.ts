/**
 * How long an app's starts and stops take, from its history: the median and the worst of the last
 * 20. The app details show both; the waking page tells a visitor the median start ("usually ready in
 * about ..."): give the wake proxy `expectedWakeMs: (appId) => service.expectedWakeMs(appId)`.
 */
import { DURATION_SAMPLE, summarizeDurations, type TransitionDurations } from '../../shared/history.ts';
import type { ReaperStore } from '../store/contract.ts';

type DurationSource = Pick<ReaperStore, 'transitionDurations'>;

export async function transitionDurationsFrom(
  store: DurationSource,
  appId: string,
): Promise<TransitionDurations> {
  const [start, stop] = await Promise.all([
    store.transitionDurations(appId, 'start', DURATION_SAMPLE),
    store.transitionDurations(appId, 'stop', DURATION_SAMPLE),
  ]);
  return { start: summarizeDurations(start), stop: summarizeDurations(stop) };
}

/** The median of the app's last 20 starts, or null before its first. */
export async function expectedWakeMs(store: DurationSource, appId: string): Promise<number | null> {
  return summarizeDurations(await store.transitionDurations(appId, 'start', DURATION_SAMPLE)).medianMs;
}
