/**
 * Rules, in the Routes view: the list in its order of precedence (the first rule that matches an
 * app takes it; a route always wins), with enable switches, a move up, and the rule editor.
 */
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Rule } from '../../../shared/rules.ts';
import { errorText } from '../../lib/errors.ts';
import { useCan } from '../../store/access.tsx';
import { useDashboard } from '../../store/context.tsx';
import { ConfirmDialog } from '../common/ConfirmDialog.tsx';
import { Switch } from '../common/form.tsx';
import { useGraceText } from '../routes/RoutesTable.tsx';
import { RuleEditor } from './RuleEditor.tsx';

export function RulesSection() {
  const { t } = useTranslation('routes');
  const rules = useDashboard((s) => s.rules);
  const apps = useDashboard((s) => s.apps);
  const [editing, setEditing] = useState<string | 'new' | null>(null);
  const can = useCan('admin');
  const managed = useMemo(() => {
    const count = new Map<string, number>();
    for (const a of Object.values(apps)) if (a.ruleId) count.set(a.ruleId, (count.get(a.ruleId) ?? 0) + 1);
    return count;
  }, [apps]);

  return (
    <section className="rules" aria-labelledby="rules-title">
      <div className="view-head">
        <h2 id="rules-title" tabIndex={-1}>
          {t('rules.title')}
        </h2>
        <p className="muted">{t('rules.intro')}</p>
        <button
          type="button"
          className="primary"
          disabled={!can.allowed}
          title={can.reason}
          onClick={() => setEditing('new')}
        >
          {t('rules.newRule')}
        </button>
      </div>
      {editing && (
        <RuleEditor
          key={editing}
          rule={editing === 'new' ? null : (rules.find((r) => r.id === editing) ?? null)}
          onDone={() => setEditing(null)}
        />
      )}
      {rules.length === 0 ? (
        <p className="empty">{t('rules.empty')}</p>
      ) : (
        <table className="routes">
          <thead>
            <tr>
              <th scope="col">{t('rules.number')}</th>
              <th scope="col">{t('rules.pattern')}</th>
              <th scope="col">{t('rules.owner')}</th>
              <th scope="col">{t('rules.enabled')}</th>
              <th scope="col">{t('rules.apps')}</th>
              <th scope="col">{t('rules.grace')}</th>
              <th scope="col">{t('rules.hosts')}</th>
              <th scope="col">{t('rules.group')}</th>
              <th scope="col">
                <span className="visually-hidden">{t('rules.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rules.map((r, i) => (
              <RuleRow
                key={r.id}
                rule={r}
                index={i}
                apps={managed.get(r.id) ?? 0}
                onEdit={() => setEditing(r.id)}
              />
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function RuleRow({
  rule,
  index,
  apps,
  onEdit,
}: {
  rule: Rule;
  index: number;
  apps: number;
  onEdit: () => void;
}) {
  const { t } = useTranslation('routes');
  const grace = useGraceText();
  const updateRule = useDashboard((s) => s.updateRule);
  const deleteRule = useDashboard((s) => s.deleteRule);
  const toast = useDashboard((s) => s.toast);
  const perform = useDashboard((s) => s.perform);
  const [pending, setPending] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const can = useCan('admin');
  const title = rule.label || rule.pattern;

  const change = async (run: () => Promise<unknown>) => {
    setPending(true);
    try {
      await run();
    } catch (error) {
      toast('error', t('table.failed', { title, error: errorText(error) }));
    } finally {
      setPending(false);
    }
  };

  return (
    <tr data-rule={title}>
      <td>{index + 1}</td>
      <th scope="row">
        {title}
        {rule.label && <span className="sub">{rule.pattern}</span>}
        {rule.dryRun && <span className="pill">{t('rules.dryRun')}</span>}
      </th>
      <td>{rule.ownerId ?? t('rules.everyOwner')}</td>
      <td>
        <Switch
          checked={rule.enabled}
          disabled={pending || !can.allowed}
          title={can.reason}
          onChange={(enabled) => perform(() => change(() => updateRule(rule.id, { enabled })))}
        >
          <span className="visually-hidden">{t('rules.enabledOf', { title })}</span>
        </Switch>
      </td>
      <td>{apps}</td>
      <td>{grace(rule.gracePeriodMs)}</td>
      <td className="hosts">{rule.hosts.join(', ') || '—'}</td>
      <td>{rule.group || '—'}</td>
      <td className="actions">
        {index > 0 && (
          <button
            type="button"
            disabled={pending || !can.allowed}
            title={can.reason}
            onClick={() => perform(() => change(() => updateRule(rule.id, { position: index - 1 })))}
            aria-label={t('rules.upOf', { title })}
          >
            {t('rules.up')}
          </button>
        )}
        <button
          type="button"
          disabled={!can.allowed}
          title={can.reason}
          onClick={onEdit}
          aria-label={t('rules.editOf', { title })}
        >
          {t('rules.edit')}
        </button>
        <button
          type="button"
          className="danger-outline"
          aria-haspopup="dialog"
          disabled={!can.allowed}
          title={can.reason}
          onClick={() => setConfirmDelete(true)}
          aria-label={t('rules.deleteOf', { title })}
        >
          {t('rules.delete')}
        </button>
        {confirmDelete && (
          <ConfirmDialog
            title={t('rules.deleteTitle', { title })}
            body={apps === 0 ? t('rules.deleteBodyNone') : t('rules.deleteBody', { count: apps })}
            confirmLabel={t('rules.delete')}
            cancelLabel={t('rules.keep')}
            busy={pending}
            onConfirm={() =>
              perform(() => change(() => deleteRule(rule.id)).finally(() => setConfirmDelete(false)))
            }
            onCancel={() => setConfirmDelete(false)}
            fallback={() => document.getElementById('rules-title')}
          />
        )}
      </td>
    </tr>
  );
}
