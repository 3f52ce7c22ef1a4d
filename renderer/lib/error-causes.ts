/**
 * The apps in Error, by cause: the six causes of the lifecycle under their short name (as the
 * History filter groups them: every deployment state together, every unexpected state together),
 * any other cause by its own text. Most apps first. The names are in the current language; the
 * causes themselves stay word for word in the rows and the details.
 */
import type { AppView } from '../../shared/app-view.ts';
import { causeKind } from '../../shared/causes.ts';
import { i18n } from '../i18n.ts';

export interface ErrorCause {
  label: string;
  appIds: string[];
}

function causeLabel(cause: string | null): string {
  const kind = causeKind(cause);
  if (kind.kind !== 'unknown') return i18n.t(`apps:causes.${kind.kind}`);
  return cause ?? i18n.t('apps:toolbarCauses.unknown');
}

export function errorCauses(apps: Iterable<AppView>): ErrorCause[] {
  const byLabel = new Map<string, string[]>();
  for (const app of apps) {
    if (app.state !== 'Error') continue;
    const label = causeLabel(app.cause);
    byLabel.set(label, [...(byLabel.get(label) ?? []), app.appId]);
  }
  return [...byLabel]
    .map(([label, appIds]) => ({ label, appIds }))
    .sort((a, b) => b.appIds.length - a.appIds.length || a.label.localeCompare(b.label));
}
