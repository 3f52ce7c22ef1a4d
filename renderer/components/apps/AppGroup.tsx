/**
 * The group of an app in its details: the members (with their state as it is now), what the group
 * waits for before this app may sleep, and the members in Error, which do not hold the others.
 */
import { useTranslation } from 'react-i18next';
import type { AppGroupView } from '../../../shared/api.ts';
import { reasonText } from '../../lib/reasons.ts';
import { useDashboard } from '../../store/context.tsx';

export function AppGroup({ group, appId }: { group: AppGroupView; appId: string }) {
  const { t } = useTranslation(['apps', 'common']);
  const apps = useDashboard((s) => s.apps);
  return (
    <section aria-labelledby="group-heading" className="app-group">
      <h3 id="group-heading">{t('group.heading', { name: group.name })}</h3>
      <p className="muted">{t('group.about')}</p>
      <ul className="plain" aria-label={t('group.members', { name: group.name })}>
        {group.members.map((m) => {
          const state = apps[m.appId]?.state ?? m.state;
          return (
            <li key={m.appId} data-member={m.name}>
              {m.name}
              {m.appId === appId && <span className="muted">{t('group.thisApp')}</span>}
              {' — '}
              <span className={state === 'Error' ? 'danger' : undefined}>{t(`common:states.${state}`)}</span>
            </li>
          );
        })}
      </ul>
      {group.waitingFor && (
        <p className="muted">{t('group.waitingFor', { waiting: reasonText(group.waitingFor) })}</p>
      )}
      {group.notes.map((n) => (
        <p key={n} className="warn">
          {reasonText(n)}
        </p>
      ))}
    </section>
  );
}
