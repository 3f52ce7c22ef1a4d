/**
 * The apps in Error, by cause: the known causes under their short label (shared CAUSE_FILTERS, as
 * the History filter names them), any other cause by its own text. Most apps first.
 */
import type { AppView } from '../../shared/app-view.ts';
import { CAUSE_FILTERS } from '../../shared/history.ts';

export interface ErrorCause {
  label: string;
  appIds: string[];
}

export function errorCauses(apps: Iterable<AppView>): ErrorCause[] {
  const byLabel = new Map<string, string[]>();
  for (const app of apps) {
    if (app.state !== 'Error') continue;
    const cause = app.cause ?? 'unknown cause';
    const label = CAUSE_FILTERS.find((c) => cause.startsWith(c.prefix))?.label ?? cause;
    byLabel.set(label, [...(byLabel.get(label) ?? []), app.appId]);
  }
  return [...byLabel]
    .map(([label, appIds]) => ({ label, appIds }))
    .sort((a, b) => b.appIds.length - a.appIds.length || a.label.localeCompare(b.label));
}
