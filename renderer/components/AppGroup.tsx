/**
 * The group of an app in its details: the members (with their state as it is now), what the group
 * waits for before this app may sleep, and the members in Error, which do not hold the others.
 */
import type { AppGroupView } from '../../shared/api.ts';
import { CONSOLE_LABELS } from '../../shared/domain.ts';
import { useDashboard } from '../store/context.tsx';

export function AppGroup({ group, appId }: { group: AppGroupView; appId: string }) {
  const apps = useDashboard((s) => s.apps);
  return (
    <section aria-labelledby="group-heading" className="app-group">
      <h3 id="group-heading">Group {group.name}</h3>
      <p className="muted">Its members wake together, and sleep only when every one of them may.</p>
      <ul className="plain" aria-label={`Members of the group ${group.name}`}>
        {group.members.map((m) => {
          const state = apps[m.appId]?.state ?? m.state;
          return (
            <li key={m.appId} data-member={m.name}>
              {m.name}
              {m.appId === appId && <span className="muted"> (this app)</span>}
              {' — '}
              <span className={state === 'Error' ? 'danger' : undefined}>{CONSOLE_LABELS[state]}</span>
            </li>
          );
        })}
      </ul>
      {group.waitingFor && <p className="muted">Not asleep yet: {group.waitingFor}</p>}
      {group.notes.map((n) => (
        <p key={n} className="warn">
          {n}
        </p>
      ))}
    </section>
  );
}
