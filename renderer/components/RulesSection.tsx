/**
 * Rules, in the Routes view: the list in its order of precedence (the first rule that matches an
 * app takes it; a route always wins), with enable switches, a move up, and the rule editor.
 */
import { useMemo, useState } from 'react';
import { formatDuration } from '../../shared/durations.ts';
import type { Rule } from '../../shared/rules.ts';
import { useDashboard } from '../store/context.tsx';
import { errorText } from '../store/dashboard-store.ts';
import { Switch } from './form.tsx';
import { RuleEditor } from './RuleEditor.tsx';

export function RulesSection() {
  const rules = useDashboard((s) => s.rules);
  const apps = useDashboard((s) => s.apps);
  const [editing, setEditing] = useState<string | 'new' | null>(null);
  const managed = useMemo(() => {
    const count = new Map<string, number>();
    for (const a of Object.values(apps)) if (a.ruleId) count.set(a.ruleId, (count.get(a.ruleId) ?? 0) + 1);
    return count;
  }, [apps]);

  return (
    <section className="rules" aria-labelledby="rules-title">
      <div className="view-head">
        <h2 id="rules-title">Rules</h2>
        <p className="muted">
          A rule puts every app whose name matches its pattern under the reaper, from the next sweep; an app
          deleted on Clever Cloud is released. A route always wins over the rules; among rules, the first that
          matches takes the app.
        </p>
        <button
          type="button"
          className="primary"
          onClick={() => setEditing('new')}
          disabled={editing === 'new'}
        >
          New rule
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
        <p className="empty">No rule yet.</p>
      ) : (
        <table className="routes">
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">Pattern</th>
              <th scope="col">Owner</th>
              <th scope="col">Enabled</th>
              <th scope="col">Apps</th>
              <th scope="col">Grace period</th>
              <th scope="col">Hosts</th>
              <th scope="col">Group</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
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
  const updateRule = useDashboard((s) => s.updateRule);
  const deleteRule = useDashboard((s) => s.deleteRule);
  const toast = useDashboard((s) => s.toast);
  const [pending, setPending] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const title = rule.label || rule.pattern;

  const change = async (run: () => Promise<unknown>) => {
    setPending(true);
    try {
      await run();
    } catch (error) {
      toast('error', `${title}: ${errorText(error)}`);
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
        {rule.dryRun && <span className="pill">dry-run</span>}
      </th>
      <td>{rule.ownerId ?? 'every owner'}</td>
      <td>
        <Switch
          checked={rule.enabled}
          disabled={pending}
          onChange={(enabled) => void change(() => updateRule(rule.id, { enabled }))}
        >
          <span className="visually-hidden">Rule {title} enabled</span>
        </Switch>
      </td>
      <td>{apps}</td>
      <td>{formatDuration(rule.gracePeriodMs)}</td>
      <td className="hosts">{rule.hosts.join(', ') || '—'}</td>
      <td>{rule.group || '—'}</td>
      <td className="actions">
        {confirmDelete ? (
          <>
            <button
              type="button"
              className="danger"
              disabled={pending}
              onClick={() => void change(() => deleteRule(rule.id))}
            >
              Delete
            </button>
            <button type="button" onClick={() => setConfirmDelete(false)}>
              Keep
            </button>
          </>
        ) : (
          <>
            {index > 0 && (
              <button
                type="button"
                disabled={pending}
                onClick={() => void change(() => updateRule(rule.id, { position: index - 1 }))}
                aria-label={`Move the rule ${title} up`}
              >
                Up
              </button>
            )}
            <button type="button" onClick={onEdit} aria-label={`Edit the rule ${title}`}>
              Edit
            </button>
            <button
              type="button"
              className="danger-outline"
              onClick={() => setConfirmDelete(true)}
              aria-label={`Delete the rule ${title}`}
            >
              Delete
            </button>
          </>
        )}
      </td>
    </tr>
  );
}
