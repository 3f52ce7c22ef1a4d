/**
 * The rule editor: owner (or every owner), name pattern, place in the list, and the route template
 * every matching app gets (grace period, must-be-up ranges, host names and group with placeholders,
 * filters, a dry-run of its own). Before saving, it previews the apps the rule matches now and what
 * saving would do to each (manage it, take it from another rule, or leave it to a rule that comes
 * first or to its route). Checked with the shared schema, refusals land on their fields.
 */
import { useEffect, useState } from 'react';
import type { Owner, RulePreviewResult } from '../../shared/api.ts';
import { type Rule, ruleCreateSchema, ruleUpdateSchema } from '../../shared/rules.ts';
import { type RuleDraft, ruleDraftOf, ruleFieldsOf } from '../lib/rule-draft.ts';
import { useApi, useDashboard } from '../store/context.tsx';
import { errorText } from '../store/dashboard-store.ts';
import { Switch } from './form.tsx';
import { RouteTemplateFields } from './RouteTemplateFields.tsx';
import { RulePreviewList } from './RulePreviewList.tsx';
import { useEditorForm } from './use-editor-form.tsx';

export function RuleEditor({ rule, onDone }: { rule: Rule | null; onDone: () => void }) {
  const api = useApi();
  const rules = useDashboard((s) => s.rules);
  const createRule = useDashboard((s) => s.createRule);
  const updateRule = useDashboard((s) => s.updateRule);
  const [draft, setDraft] = useState<RuleDraft>(() =>
    ruleDraftOf(rule, rule ? rules.findIndex((r) => r.id === rule.id) : rules.length),
  );
  const [owners, setOwners] = useState<Owner[] | null>(null);
  const [preview, setPreview] = useState<RulePreviewResult | null>(null);
  const [previewError, setPreviewError] = useState<string | null>(null);
  const { id, problems, saving, submit, err, described } = useEditorForm({
    fields: () => ruleFieldsOf(draft),
    schema: rule ? ruleUpdateSchema : ruleCreateSchema,
    save: (fields) => (rule ? updateRule(rule.id, fields) : createRule(fields)),
    onDone,
  });
  const set = (patch: Partial<RuleDraft>) => setDraft((d) => ({ ...d, ...patch }));

  useEffect(() => {
    api.listOwners().then(setOwners, () => setOwners([]));
  }, [api]);

  // The preview follows the draft (a moment after typing stops).
  useEffect(() => {
    const fields = ruleFieldsOf(draft);
    const check = ruleCreateSchema.safeParse(fields);
    if (!check.success) {
      setPreview(null);
      return;
    }
    let live = true;
    const timer = setTimeout(() => {
      api.previewRule({ ...fields, ...(rule ? { ruleId: rule.id } : {}) }).then(
        (p) => {
          if (!live) return;
          setPreview(p);
          setPreviewError(null);
        },
        (e: unknown) => live && setPreviewError(errorText(e)),
      );
    }, 300);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [api, draft, rule]);

  const places = rule ? rules.length : rules.length + 1;

  return (
    <form className="editor" onSubmit={(e) => void submit(e)} aria-labelledby={`${id}-title`} noValidate>
      <h2 id={`${id}-title`}>{rule ? `Edit the rule ${rule.label || rule.pattern}` : 'New rule'}</h2>
      {problems.form && (
        <p className="callout danger" role="alert">
          {problems.form.join('; ')}
        </p>
      )}
      <div className="grid">
        <label htmlFor={`${id}-owner`}>Owner</label>
        <div>
          <select id={`${id}-owner`} value={draft.ownerId} onChange={(e) => set({ ownerId: e.target.value })}>
            <option value="">Every owner</option>
            {owners?.map((o) => (
              <option key={o.id} value={o.id}>
                {o.name}
              </option>
            ))}
          </select>
          {err('ownerId')}
        </div>

        <label htmlFor={`${id}-pattern`}>Name pattern</label>
        <div>
          <input
            id={`${id}-pattern`}
            value={draft.pattern}
            placeholder="review-*, *-pr-*"
            onChange={(e) => set({ pattern: e.target.value })}
            {...described('pattern')}
          />
          <span className="hint">
            * any characters, ? one; case-sensitive. Each wildcard is {'{1}'}, {'{2}'}… in the templates
            below.
          </span>
          {err('pattern')}
        </div>

        <label htmlFor={`${id}-label`}>Label</label>
        <div>
          <input
            id={`${id}-label`}
            value={draft.label}
            placeholder="optional: the pattern is shown when empty"
            onChange={(e) => set({ label: e.target.value })}
          />
        </div>

        <label htmlFor={`${id}-position`}>Precedence</label>
        <div>
          <select
            id={`${id}-position`}
            value={draft.position}
            onChange={(e) => set({ position: Number(e.target.value) })}
          >
            {Array.from({ length: places }, (_, i) => i).map((i) => (
              <option key={`place-${i}`} value={i}>
                {i + 1}
                {i === 0 ? ' (first: wins over the others)' : ''}
              </option>
            ))}
          </select>
          <span className="hint">The first rule that matches an app takes it; a route always wins.</span>
        </div>

        <span>Enabled</span>
        <div>
          <Switch checked={draft.enabled} onChange={(enabled) => set({ enabled })}>
            <span>{draft.enabled ? 'Matching apps are managed' : 'Disabled: its apps are released'}</span>
          </Switch>
        </div>

        <span>Dry-run</span>
        <div>
          <Switch checked={draft.dryRun} onChange={(dryRun) => set({ dryRun })}>
            <span>{draft.dryRun ? 'Its apps are only observed' : 'Its apps are put to sleep'}</span>
          </Switch>
        </div>

        <RouteTemplateFields
          id={id}
          draft={draft}
          set={set}
          setRanges={(change) => setDraft((d) => ({ ...d, ranges: change(d.ranges) }))}
          problems={problems}
          err={err}
          described={described}
          examples={{
            hosts: '{name}.review.example.com',
            group: 'pr-{2}',
            hostsHint: (
              <>
                {'{name}'} and {'{1}'}… are made DNS-safe (lower case, dashes).
              </>
            ),
          }}
        />
      </div>
      <RulePreviewList preview={preview} error={previewError} rules={rules} />
      <div className="form-actions">
        <button type="submit" className="primary" disabled={saving}>
          {saving ? 'Saving…' : rule ? 'Save the rule' : 'Create the rule'}
        </button>
        <button type="button" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}
