/** The rule editor's preview: the apps the rule matches now, and what saving it would do to each. */
import type { RulePreviewResult } from '../../shared/api.ts';
import type { PreviewOutcome } from '../../shared/rule-preview.ts';
import type { Rule } from '../../shared/rules.ts';

const OUTCOMES: Record<PreviewOutcome, string> = {
  managed: 'managed by this rule',
  'taken-from-rule': 'taken from rule',
  'kept-by-rule': 'stays with rule',
  'kept-by-route': 'stays with its route',
};

export function RulePreviewList({
  preview,
  error,
  rules,
}: {
  preview: RulePreviewResult | null;
  error: string | null;
  rules: readonly Rule[];
}) {
  const ruleName = (id: string | null) => {
    const r = rules.find((x) => x.id === id);
    return r ? r.label || r.pattern : (id ?? '');
  };
  return (
    <section className="rule-preview" aria-label="Apps this rule matches now" aria-live="polite">
      <h3>Apps this rule matches now</h3>
      {error && <p className="field-error">{error}</p>}
      {!preview ? (
        <p className="muted">Type a name pattern to see the apps it matches.</p>
      ) : preview.matches.length === 0 ? (
        <p className="muted">No app matches this pattern now.</p>
      ) : (
        <>
          <p className="muted">
            {preview.counts.managed} to manage, {preview.counts['taken-from-rule']} taken from another rule,{' '}
            {preview.counts['kept-by-rule'] + preview.counts['kept-by-route']} left to a rule or route.
          </p>
          <ul>
            {preview.matches.map((m) => (
              <li key={m.appId} data-preview-app={m.name} data-outcome={m.outcome}>
                <strong>{m.name}</strong> — {OUTCOMES[m.outcome]}
                {m.outcome === 'taken-from-rule' || m.outcome === 'kept-by-rule'
                  ? ` ${ruleName(m.otherRuleId)}`
                  : ''}
                {m.hosts.length > 0 && <span className="muted"> · {m.hosts.join(', ')}</span>}
                {m.group && <span className="muted"> · group {m.group}</span>}
              </li>
            ))}
          </ul>
        </>
      )}
      {preview && preview.unreadOwners.length > 0 && (
        <p className="field-error">
          Not read (their apps are missing here): {preview.unreadOwners.join(', ')}
        </p>
      )}
    </section>
  );
}
