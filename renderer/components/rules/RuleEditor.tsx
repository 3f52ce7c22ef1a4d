/**
 * The rule editor, a modal dialog: owner (or every owner), name pattern, place in the list, and the
 * route template every matching app gets (grace period, must-be-up ranges, host names and group with
 * placeholders, filters, a dry-run of its own). Before saving, it previews the apps the rule matches
 * now and what saving would do to each (manage it, take it from another rule, or leave it to a rule
 * that comes first or to its route). Checked with the shared schema, refusals land on their fields;
 * closing it with unsaved changes asks first.
 */

import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Owner, RulePreviewResult } from '../../../shared/api.ts';
import { type Rule, ruleCreateSchema, ruleUpdateSchema } from '../../../shared/rules.ts';
import { errorText } from '../../lib/errors.ts';
import { ownerLabel } from '../../lib/format.ts';
import { graceProblems } from '../../lib/route-draft.ts';
import { type RuleDraft, ruleDraftOf, ruleFieldsOf } from '../../lib/rule-draft.ts';
import { useUnsavedChanges } from '../../lib/unsaved-changes.ts';
import { useApi, useDashboard } from '../../store/context.tsx';
import { EditorForm } from '../common/EditorForm.tsx';
import { Switch } from '../common/form.tsx';
import { useEditorForm } from '../common/use-editor-form.tsx';
import { RouteTemplateFields } from '../routes/RouteTemplateFields.tsx';
import { RulePreviewList } from './RulePreviewList.tsx';

export function RuleEditor({ rule, onDone }: { rule: Rule | null; onDone: () => void }) {
  const { t } = useTranslation(['routes', 'validation']);
  const api = useApi();
  const rules = useDashboard((s) => s.rules);
  const perform = useDashboard((s) => s.perform);
  const createRule = useDashboard((s) => s.createRule);
  const updateRule = useDashboard((s) => s.updateRule);
  const [initial] = useState<RuleDraft>(() =>
    ruleDraftOf(rule, rule ? rules.findIndex((r) => r.id === rule.id) : rules.length),
  );
  const [draft, setDraft] = useState<RuleDraft>(initial);
  const [owners, setOwners] = useState<Owner[] | null>(null);
  const [preview, setPreview] = useState<RulePreviewResult | null>(null);
  const [previewError, setPreviewError] = useState<string | null>(null);
  const { confirmLeave } = useUnsavedChanges(
    JSON.stringify(draft) !== JSON.stringify(initial),
    t('ruleEditor.unsaved'),
  );
  const form = useEditorForm({
    fields: () => ruleFieldsOf(draft),
    precheck: () => graceProblems(draft),
    units: { gracePeriodMs: draft.graceUnit },
    schema: rule ? ruleUpdateSchema : ruleCreateSchema,
    save: (fields) => (rule ? updateRule(rule.id, fields) : createRule(fields)),
    onDone,
  });
  const { id, problems, err, described, text } = form;
  const set = (patch: Partial<RuleDraft>) => setDraft((d) => ({ ...d, ...patch }));
  const close = () =>
    perform(async () => {
      if (await confirmLeave()) onDone();
    });

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
    <EditorForm
      form={form}
      title={
        rule ? t('ruleEditor.editTitle', { name: rule.label || rule.pattern }) : t('ruleEditor.newTitle')
      }
      submitLabel={rule ? t('ruleEditor.save') : t('ruleEditor.create')}
      onClose={close}
      fallbackId="rules-title"
      after={<RulePreviewList preview={preview} error={previewError} rules={rules} />}
    >
      <label htmlFor={`${id}-owner`}>{t('ruleEditor.owner')}</label>
      <div>
        <select
          id={`${id}-owner`}
          value={draft.ownerId}
          onChange={(e) => set({ ownerId: e.target.value })}
          {...described('ownerId')}
        >
          <option value="">{t('ruleEditor.everyOwner')}</option>
          {owners?.map((o) => (
            <option key={o.id} value={o.id}>
              {ownerLabel({ ownerId: o.id, ownerName: o.name })}
            </option>
          ))}
        </select>
        {err('ownerId')}
      </div>

      <label htmlFor={`${id}-pattern`}>{t('ruleEditor.pattern')}</label>
      <div>
        <input
          id={`${id}-pattern`}
          value={draft.pattern}
          placeholder={t('ruleEditor.patternPlaceholder')}
          onChange={(e) => set({ pattern: e.target.value })}
          {...described('pattern')}
        />
        <span className="hint">{t('ruleEditor.patternHint')}</span>
        {err('pattern')}
      </div>

      <label htmlFor={`${id}-label`}>{t('ruleEditor.label')}</label>
      <div>
        <input
          id={`${id}-label`}
          value={draft.label}
          placeholder={t('ruleEditor.labelPlaceholder')}
          onChange={(e) => set({ label: e.target.value })}
          {...described('label')}
        />
        {err('label')}
      </div>

      <label htmlFor={`${id}-position`}>{t('ruleEditor.position')}</label>
      <div>
        <select
          id={`${id}-position`}
          value={draft.position}
          onChange={(e) => set({ position: Number(e.target.value) })}
        >
          {Array.from({ length: places }, (_, i) => i).map((i) => (
            <option key={`place-${i}`} value={i}>
              {i === 0 ? t('ruleEditor.first', { n: i + 1 }) : t('ruleEditor.place', { n: i + 1 })}
            </option>
          ))}
        </select>
        <span className="hint">{t('ruleEditor.positionHint')}</span>
      </div>

      <span>{t('ruleEditor.enabled')}</span>
      <div>
        <Switch checked={draft.enabled} onChange={(enabled) => set({ enabled })}>
          <span>{draft.enabled ? t('ruleEditor.enabledOn') : t('ruleEditor.enabledOff')}</span>
        </Switch>
      </div>

      <span>{t('ruleEditor.dryRun')}</span>
      <div>
        <Switch checked={draft.dryRun} onChange={(dryRun) => set({ dryRun })}>
          <span>{draft.dryRun ? t('ruleEditor.dryRunOn') : t('ruleEditor.dryRunOff')}</span>
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
        text={text}
        examples={{
          hosts: t('ruleEditor.hostsExample'),
          group: t('ruleEditor.groupExample'),
          hostsHint: t('ruleEditor.hostsHint'),
        }}
      />
    </EditorForm>
  );
}
