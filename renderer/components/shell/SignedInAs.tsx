/**
 * Who the browser dashboard is signed in as, with which role ("Signed in as alice · operator"), and
 * Sign out (the session ended on the server; the token screen comes). Nothing in the desktop app,
 * whose own engine needs no sign-in.
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
  const signOut = async () => {
    setBusy(true);
    try {
      await access.signOut();
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
