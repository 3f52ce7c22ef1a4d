/**
 * First run: connect a Clever Cloud account first (a clever-tools login or CLEVER_TOKEN found on this
 * machine, or a pasted token, with where to create one), the demo second. The demo is never chosen
 * silently. Once connected, the dashboard proposes a first day in dry-run (FirstDay.tsx).
 */
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import type { ConnectInput } from '../../../shared/api.ts';
import { problemsOf } from '../../../shared/api-errors.ts';
import { CONSOLE_ORIGIN } from '../../../shared/console-links.ts';
import { useApi, useDashboard } from '../../store/context.tsx';
import { errorText } from '../../store/dashboard-store.ts';
import { RunButton } from '../common/form.tsx';
import { Logo } from '../common/icons.tsx';
import { TeamServerPanel } from '../settings/TeamServer.tsx';

/**
 * Where API tokens are made in the console: the profile's "API tokens" page (Clever Cloud's changelog
 * of 2025-06-05, CleverCloud/documentation content/changelog/2025/06-05-api-tokens-console-tips.md,
 * which links this page and says creating one asks for the password and the 2FA code, and that an
 * account made with GitHub sets a password first). `clever tokens create <name>` does the same
 * (clever-tools src/commands2/tokens/tokens.docs.md, since 3.12). The console names the page "API
 * tokens" / "Tokens d'API" and allows an expiry of 1 year at most (clever-components
 * src/translations/translations.{en,fr}.js, cc-token-api-list and cc-token-api-creation-form).
 * The rights: Clever Cloud documents no scopes for API tokens; that one acts with its owner's rights
 * is our reading (unconfirmed).
 */
const API_TOKENS_URL = `${CONSOLE_ORIGIN}/users/me/api-tokens`;

export function FirstRun() {
  const { t } = useTranslation('firstRun');
  const status = useDashboard((s) => s.status);
  const teamMode = useApi().console !== undefined;
  const startDemo = useDashboard((s) => s.startDemo);
  const proposeFirstDay = useDashboard((s) => s.proposeFirstDay);
  const c = status?.credentials;
  return (
    <main className="first-run">
      <div className="card">
        <h1>
          <Logo size={28} /> {t('welcome')}
        </h1>
        <p>{t('intro')}</p>
        <h2>{t('connect.title')}</h2>
        {c?.canConnect ? (
          <>
            <HowToGetAToken />
            <ConnectAccount onConnected={() => proposeFirstDay(true)} />
          </>
        ) : (
          <p className="muted">{c?.problem ?? t('connect.cannot')}</p>
        )}
        <h2>{t('demo.title')}</h2>
        <p className="muted">{t('demo.text')}</p>
        <RunButton run={startDemo} label={t('demo.start')} busyLabel={t('demo.starting')} />
      </div>
      {teamMode && <TeamServerPanel />}
    </main>
  );
}

/** The console's API tokens page; its words come from the catalogue (Trans fills `children`). */
function TokensLink({ children }: { children?: ReactNode }) {
  return (
    <a href={API_TOKENS_URL} target="_blank" rel="noopener noreferrer">
      {children}
    </a>
  );
}

function HowToGetAToken() {
  const { t } = useTranslation('firstRun');
  return (
    <section className="how-token" aria-label={t('connect.howTitle')}>
      <p>
        <Trans
          t={t}
          i18nKey="connect.how"
          components={[<TokensLink key="tokens" />, <code key="command" />]}
        />
      </p>
      <p className="muted">{t('connect.rights')}</p>
    </section>
  );
}

export function ConnectAccount({ onConnected }: { onConnected?: () => void }) {
  const { t } = useTranslation('firstRun');
  const connectAccount = useDashboard((s) => s.connect);
  const perform = useDashboard((s) => s.perform);
  const status = useDashboard((s) => s.status);
  const [token, setToken] = useState('');
  const [secret, setSecret] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const id = useId();
  const found = status?.credentials.found;

  const connect = async (input: ConnectInput) => {
    setBusy(true);
    setError(null);
    try {
      await connectAccount(input);
      onConnected?.();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    perform(() => connect({ source: 'pasted', token, ...(secret.trim() ? { secret } : {}) }));
  };
  const tokenProblems = problemsOf(error, 'token');
  return (
    <div className="connect">
      {found?.cleverTools && (
        <button
          type="button"
          className="primary"
          disabled={busy}
          onClick={() => perform(() => connect({ source: 'clever-tools' }))}
        >
          {t('connect.cleverTools')}
        </button>
      )}
      {found?.environment && (
        <button
          type="button"
          className="primary"
          disabled={busy}
          onClick={() => perform(() => connect({ source: 'environment' }))}
        >
          {t('connect.environment')}
        </button>
      )}
      <form onSubmit={submit} className="grid" noValidate>
        <label htmlFor={`${id}-token`}>{t('connect.token')}</label>
        <div>
          <input
            id={`${id}-token`}
            type="password"
            autoComplete="off"
            value={token}
            onChange={(e) => setToken(e.target.value)}
            aria-invalid={tokenProblems.length ? true : undefined}
          />
          {tokenProblems.length > 0 && <span className="field-error">{tokenProblems.join('; ')}</span>}
        </div>
        <label htmlFor={`${id}-secret`}>{t('connect.secret')}</label>
        <div>
          <input
            id={`${id}-secret`}
            type="password"
            autoComplete="off"
            value={secret}
            onChange={(e) => setSecret(e.target.value)}
          />
          <span className="hint">{t('connect.secretHint')}</span>
        </div>
        <div />
        <div>
          <button type="submit" className="primary" disabled={busy}>
            {busy ? t('connect.checking') : t('connect.submit')}
          </button>
        </div>
      </form>
      {error !== null && tokenProblems.length === 0 && (
        <p className="field-error" role="alert">
          {errorText(error)}
        </p>
      )}
    </div>
  );
}
