/**
 * The apps in Error, by cause: the six causes of the lifecycle under their short name (as the
 * History filter groups them: every deployment state together, every unexpected state together),
 * any other cause by its own text. Most apps first. The names are in the current language
 * (`common:causes`); the causes themselves stay word for word in the rows and the details.
 */
import type { AppView } from '../../shared/app-view.ts';
import { causeKind } from '../../shared/causes.ts';
import { CAUSES } from '../../shared/domain.ts';
import { i18n } from '../i18n.ts';

export interface ErrorCause {
  label: string;
  appIds: string[];
}

type KnownCause = Exclude<ReturnType<typeof causeKind>['kind'], 'unknown'>;

/** A cause of each kind, to tell which kind a cause prefix (shared CAUSE_FILTERS) stands for. */
const SAMPLES: Record<KnownCause, string> = {
  stopTimeout: CAUSES.stopTimeout,
  startTimeout: CAUSES.startTimeout,
  startFailed: CAUSES.startFailed,
  unsafeLastDeployment: CAUSES.unsafeLastDeployment('FAIL'),
  neverDeployed: CAUSES.neverDeployed,
  unexpectedState: CAUSES.unexpectedState('MODERATED'),
};

/**
 * The short name of a cause filter (shared/history.ts CAUSE_FILTERS, by its prefix) in the current
 * language; `fallback` (the filter's English label) for a prefix of no known cause.
 */
export function causeFilterLabel(prefix: string, fallback: string): string {
  const kind = (Object.keys(SAMPLES) as KnownCause[]).find((k) => SAMPLES[k].startsWith(prefix));
  return kind ? i18n.t(`common:causes.${kind}`) : fallback;
}

function causeLabel(cause: string | null): string {
  const kind = causeKind(cause);
  if (kind.kind !== 'unknown') return i18n.t(`common:causes.${kind.kind}`);
  return cause ?? i18n.t('apps:toolbarCauses.unknown');
}

export function errorCauses(apps: Iterable<AppView>): ErrorCause[] {
  const byLabel = new Map<string, string[]>();
  // Each distinct cause named once (a catalogue look-up per app in Error was a tenth of the first
  // render with 1,000 apps, bench/dashboard.ts), each label's list grown in place.
  const labels = new Map<string | null, string>();
  for (const app of apps) {
    if (app.state !== 'Error') continue;
    let label = labels.get(app.cause);
    if (label === undefined) {
      label = causeLabel(app.cause);
      labels.set(app.cause, label);
    }
    const ids = byLabel.get(label);
    if (ids) ids.push(app.appId);
    else byLabel.set(label, [app.appId]);
  }
  return [...byLabel]
    .map(([label, appIds]) => ({ label, appIds }))
    .sort((a, b) => b.appIds.length - a.appIds.length || a.label.localeCompare(b.label));
}
