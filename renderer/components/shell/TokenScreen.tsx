/**
 * The browser dashboard not signed in: paste your token (the server printed the bootstrap one; an
 * admin gives each person theirs). It is sent once to sign in, then forgotten: the session cookie
 * stands for it. Says why it is shown (a session that ended, a refused token) and, after too many
 * wrong tokens, how long to wait, counting down.
 */
import { type FormEvent, useEffect, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import type { SessionInfo } from '../../../shared/people.ts';
import type { SessionAnswer, SignInFailure } from '../../api/session.ts';
import { Logo } from '../common/icons.tsx';

export function TokenScreen({
  failure: initial,
  signIn,
  onSignedIn,
}: {
  failure: SignInFailure;
  signIn: (token: string) => Promise<SessionAnswer>;
  onSignedIn: (info: SessionInfo) => void;
}) {
  const { t } = useTranslation('firstRun');
  const [token, setToken] = useState('');
  const [failure, setFailure] = useState<SignInFailure>(initial);
  const [busy, setBusy] = useState(false);
  const [waitUntil, setWaitUntil] = useState<number | null>(null);
  const [now, setNow] = useState(() => Date.now());
  const left = waitUntil === null ? 0 : Math.ceil((waitUntil - now) / 1000);
  useEffect(() => {
    if (waitUntil === null) return;
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, [waitUntil]);
  useEffect(() => {
    if (failure.kind !== 'wait') return;
    const at = Date.now();
    setNow(at);
    setWaitUntil(at + failure.seconds * 1000);
  }, [failure]);
  const waiting = failure.kind === 'wait' && left > 0;
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!token.trim() || busy || waiting) return;
    setBusy(true);
    const answer = await signIn(token.trim());
    setBusy(false);
    if (answer.ok) onSignedIn(answer.info);
    else setFailure(answer.failure);
  };
  const message =
    failure.kind === 'ended'
      ? t('token.ended')
      : failure.kind === 'refused'
        ? t('token.refused')
        : failure.kind === 'wait'
          ? left > 0
            ? t('token.wait', { count: left })
            : null
          : failure.kind === 'unavailable'
            ? t('token.unavailable', { error: failure.message })
            : null;
  return (
    <main className="first-run">
      <form
        className="card"
        onSubmit={(e) => {
          submit(e).catch((error: unknown) => {
            setBusy(false);
            setFailure({ kind: 'unavailable', message: String(error) });
          });
        }}
      >
        <h1>
          <Logo size={28} /> Clever Reaper
        </h1>
        <p>
          <Trans t={t} i18nKey="token.text" components={[<code key="file" />, <code key="env" />]} />
        </p>
        {message && (
          <p className="field-error" role="alert" data-testid="sign-in-message">
            {message}
          </p>
        )}
        <label htmlFor="token">{t('token.label')}</label>
        <input
          id="token"
          type="password"
          autoComplete="off"
          value={token}
          onChange={(e) => setToken(e.target.value)}
        />
        <div className="form-actions">
          <button type="submit" className="primary" disabled={busy || waiting}>
            {t('token.open')}
          </button>
        </div>
      </form>
    </main>
  );
}
