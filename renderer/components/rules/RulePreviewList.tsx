/** The rule editor's preview: the apps the rule matches now, and what saving it would do to each. */
import { useTranslation } from 'react-i18next';
import type { RulePreviewResult } from '../../../shared/api.ts';
import { assertNever } from '../../../shared/domain.ts';
import type { PreviewOutcome } from '../../../shared/rule-preview.ts';
import type { Rule } from '../../../shared/rules.ts';

export function RulePreviewList({
  preview,
  error,
  rules,
}: {
  preview: RulePreviewResult | null;
  error: string | null;
  rules: readonly Rule[];
}) {
  const { t } = useTranslation('routes');
  const ruleName = (id: string | null) => {
    const r = rules.find((x) => x.id === id);
    return r ? r.label || r.pattern : (id ?? '');
  };
  const outcome = (o: PreviewOutcome, other: string | null): string => {
    switch (o) {
      case 'managed':
        return t('preview.managed');
      case 'taken-from-rule':
        return t('preview.takenFromRule', { rule: ruleName(other) });
      case 'kept-by-rule':
        return t('preview.keptByRule', { rule: ruleName(other) });
      case 'kept-by-route':
        return t('preview.keptByRoute');
      default:
        return assertNever(o);
    }
  };
  return (
    <section className="rule-preview" aria-label={t('preview.title')} aria-live="polite">
      <h3>{t('preview.title')}</h3>
      {error && <p className="field-error">{error}</p>}
      {!preview ? (
        <p className="muted">{t('preview.typePattern')}</p>
      ) : preview.matches.length === 0 ? (
        <p className="muted">{t('preview.none')}</p>
      ) : (
        <>
          <p className="muted">
            {t('preview.counts', {
              managed: preview.counts.managed,
              taken: preview.counts['taken-from-rule'],
              left: preview.counts['kept-by-rule'] + preview.counts['kept-by-route'],
            })}
          </p>
          <ul>
            {preview.matches.map((m) => (
              <li key={m.appId} data-preview-app={m.name} data-outcome={m.outcome}>
                <strong>{m.name}</strong> — {outcome(m.outcome, m.otherRuleId)}
                {m.hosts.length > 0 && <span className="muted"> · {m.hosts.join(', ')}</span>}
                {m.group && <span className="muted"> · {t('preview.group', { group: m.group })}</span>}
              </li>
            ))}
          </ul>
        </>
      )}
      {preview && preview.unreadOwners.length > 0 && (
        <p className="field-error">{t('preview.unread', { owners: preview.unreadOwners.join(', ') })}</p>
      )}
    </section>
  );
}
