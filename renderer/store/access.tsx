/**
 * What the person signed in may do (issue 25): one place decides, from the role "who am I" gave and
 * shared/people.ts's order of roles. A control asks `useCan('operator')` and is disabled with the
 * reason it gives; the desktop's own engine (no sign-in) allows everything. The desktop app on a team
 * server is the person its token names (the main process asked the server: ConsoleState's `who`).
 */
import { createContext, type ReactNode, useContext, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { type Role, roleAllows, type SessionInfo } from '../../shared/people.ts';
import type { ConsoleState } from '../../shared/team-console.ts';

export type Access =
  /** The desktop's own engine, or a client with a bearer token: no sign-in, no role to check. */
  | { kind: 'local' }
  /** The browser dashboard, "who am I" not answered yet. */
  | { kind: 'checking' }
  /**
   * A person: the browser signed in (Sign out ends its session), or the desktop app on a team server
   * with the person's own token (`server`: the server's host; no Sign out, Settings goes back to local).
   */
  | { kind: 'person'; info: SessionInfo; signOut?: () => Promise<void>; server?: string };

const AccessContext = createContext<Access>({ kind: 'local' });
export const AccessProvider = AccessContext.Provider;

/**
 * The desktop's access from its mode: on a team server, the person its token names once the server
 * said (until then, or from an older server that does not say, nothing is disabled here: the server
 * still refuses what the role may not do); its own engine, everything.
 */
export function accessOfConsole(state: ConsoleState | null): Access {
  if (state?.mode !== 'team' || !state.who) return { kind: 'local' };
  const { name, role } = state.who;
  return {
    kind: 'person',
    info: { name, role, by: 'bearer', csrf: null, expiresAt: null },
    server: state.host,
  };
}

export function useAccess(): Access {
  return useContext(AccessContext);
}

/** Whether a role allows what needs `need`, and when not, why (for `title`/`aria-describedby`). */
export interface Can {
  allowed: boolean;
  /** The reason it is not allowed; undefined when it is. */
  reason: string | undefined;
}

export function canOf(access: Access, need: Role, t: (key: string, values?: object) => string): Can {
  if (access.kind === 'local') return { allowed: true, reason: undefined };
  if (access.kind === 'checking') return { allowed: false, reason: t('common:access.checking') };
  const have = access.info.role;
  if (roleAllows(have, need)) return { allowed: true, reason: undefined };
  return {
    allowed: false,
    reason: t('common:access.needs', { need: t(`common:roles.${need}`), have: t(`common:roles.${have}`) }),
  };
}

export function useCan(need: Role): Can {
  const { t } = useTranslation('common');
  return canOf(useAccess(), need, t as unknown as (key: string, values?: object) => string);
}

/**
 * Controls a role may not use, all at once: a disabled fieldset (every input and button in it is
 * disabled), the reason said above them and given to each as its tooltip.
 */
export function RoleGate({ need, children }: { need: Role; children: ReactNode }) {
  const can = useCan(need);
  const id = useId();
  if (can.allowed) return children;
  return (
    <>
      <p className="role-note" id={id} data-testid="role-note">
        {can.reason}
      </p>
      <fieldset className="role-gate" disabled aria-describedby={id} title={can.reason}>
        {children}
      </fieldset>
    </>
  );
}
