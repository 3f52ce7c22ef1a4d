/**
 * Who the dashboard is signed in as, with which role ("Signed in as alice · operator"): the browser,
 * with Sign out (the session ended on the server; the token screen comes); the desktop app on a team
 * server, with its own token (going back to this computer is in Settings). Nothing on the desktop's
 * own engine, which needs no sign-in.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAccess } from '../../store/access.tsx';
import { useDashboard } from '../../store/context.tsx';
import { errorText } from '../../store/dashboard-store.ts';

export function SignedInAs() {
  const { t } = useTranslation(['shell', 'common']);
  const access = useAccess();
  const toast = useDashboard((s) => s.toast);
  const [busy, setBusy] = useState(false);
  if (access.kind !== 'person') return null;
  const { name, role } = access.info;
  const values = { name, role: t(`common:roles.${role}`) };
  const end = access.signOut;
  if (!end) {
    // The desktop app: "Signed in as" over "alice · operator" (no Sign out on this line).
    return (
      <span
        className="signed-in"
        data-testid="signed-in"
        title={t('session.desktopTitle', { ...values, server: access.server ?? '' })}
      >
        <span className="signed-in-label">{t('session.signedInAs')}</span>
        <span className="signed-in-as">{t('session.who', values)}</span>
      </span>
    );
  }
  const signOut = async () => {
    setBusy(true);
    try {
      await end();
    } catch (error) {
      setBusy(false);
      toast('error', t('session.signOutFailed', { error: errorText(error) }));
    }
  };
  return (
    <span className="signed-in" data-testid="signed-in">
      {/* "Signed in as" said to screen readers and in the tooltip: the header's room is short at 1280 px. */}
      <span className="signed-in-as" title={t('session.signedInTitle', values)}>
        <span className="visually-hidden">{t('session.signedInAs')} </span>
        {t('session.who', values)}
      </span>
      <button
        type="button"
        className="link"
        disabled={busy}
        onClick={() => {
          signOut().catch((error: unknown) => toast('error', errorText(error)));
        }}
      >
        {t('session.signOut')}
      </button>
    </span>
  );
}
