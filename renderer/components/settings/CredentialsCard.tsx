/** Settings' "Clever Cloud account" card: the mode, whose credentials and where they come from, never a secret. */
import { useTranslation } from 'react-i18next';
import type { CredentialsStatus } from '../../../shared/api.ts';
import { credentialsUnchecked } from '../../lib/credentials.ts';
import { useDashboard } from '../../store/context.tsx';
import { ConnectAccount } from '../shell/FirstRun.tsx';

const SOURCE_KEYS = {
  environment: 'account.source.environment',
  'clever-tools': 'account.source.cleverTools',
  pasted: 'account.source.pasted',
} as const satisfies Record<NonNullable<CredentialsStatus['source']>, string>;

export function CredentialsCard() {
  const { t } = useTranslation('settings');
  const status = useDashboard((s) => s.status);
  const startDemo = useDashboard((s) => s.startDemo);
  const perform = useDashboard((s) => s.perform);
  if (!status) return null;
  const c = status.credentials;
  const source = c.source ? t(SOURCE_KEYS[c.source]) : null;
  const connected = credentialsUnchecked(status)
    ? t('account.unchecked')
    : c.account && source
      ? t('account.connectedAsFrom', { account: c.account, source })
      : c.account
        ? t('account.connectedAs', { account: c.account })
        : source
          ? t('account.connectedFrom', { source })
          : t('account.connected');
  return (
    <section className="card" aria-labelledby="credentials-title">
      <h2 id="credentials-title">{t('account.title')}</h2>
      <dl className="facts">
        <dt>{t('account.mode')}</dt>
        <dd>
          {status.mode === 'demo'
            ? t('account.modeDemo')
            : status.mode === 'account'
              ? t('account.modeAccount')
              : t('account.modeNone')}
        </dd>
        <dt>{t('account.credentials')}</dt>
        <dd>
          {c.state === 'connected'
            ? connected
            : c.state === 'invalid'
              ? t('account.invalid')
              : t('account.none')}
        </dd>
        {c.storage && (
          <>
            <dt>{t('account.keptIn')}</dt>
            <dd>{c.storage}</dd>
          </>
        )}
        {c.problem && (
          <>
            <dt>{t('account.note')}</dt>
            <dd className="warn">{c.problem}</dd>
          </>
        )}
      </dl>
      {c.canConnect && <ConnectAccount />}
      {status.mode !== 'demo' && (
        <button type="button" onClick={() => perform(startDemo)}>
          {t('account.switchToDemo')}
        </button>
      )}
    </section>
  );
}
