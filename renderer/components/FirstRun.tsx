/**
 * First run: connect a Clever Cloud account (a clever-tools login or CLEVER_TOKEN found on this
 * machine, or a pasted token), or try the demo. The demo is never chosen silently.
 */
import { type FormEvent, useId, useState } from 'react';
import type { ConnectInput } from '../../shared/api.ts';
import { problemsOf } from '../../shared/api-errors.ts';
import { useApi, useDashboard } from '../store/context.tsx';
import { errorText } from '../store/dashboard-store.ts';
import { Logo } from './icons.tsx';
import { TeamServerPanel } from './TeamServer.tsx';

export function FirstRun() {
  const status = useDashboard((s) => s.status);
  const teamMode = useApi().console !== undefined;
  const startDemo = useDashboard((s) => s.startDemo);
  const [error, setError] = useState<string | null>(null);
  const [starting, setStarting] = useState(false);
  const c = status?.credentials;
  return (
    <main className="first-run">
      <div className="card">
        <h1>
          <Logo size={28} /> Welcome to Clever Reaper
        </h1>
        <p>
          Clever Reaper puts your idle Clever Cloud apps to sleep, wakes them when someone needs them, and
          tells you when something goes wrong.
        </p>
        <h2>Connect a Clever Cloud account</h2>
        {c?.canConnect ? (
          <ConnectAccount />
        ) : (
          <p className="muted">{c?.problem ?? 'Connecting an account is not possible from here.'}</p>
        )}
        <h2>Or try the demo</h2>
        <p className="muted">
          A simulated Clever Cloud with a handful of apps and traffic: every state of the reaper within a few
          minutes, no account needed.
        </p>
        <button
          type="button"
          className="primary"
          disabled={starting}
          onClick={() => {
            setStarting(true);
            startDemo().then(
              () => setStarting(false),
              (e: unknown) => {
                setStarting(false);
                setError(errorText(e));
              },
            );
          }}
        >
          {starting ? 'Starting the demo…' : 'Try the demo'}
        </button>
        {error && (
          <p className="field-error" role="alert">
            {error}
          </p>
        )}
      </div>
      {teamMode && <TeamServerPanel />}
    </main>
  );
}

export function ConnectAccount() {
  const connectAccount = useDashboard((s) => s.connect);
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
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void connect({ source: 'pasted', token, ...(secret.trim() ? { secret } : {}) });
  };
  const tokenProblems = problemsOf(error, 'token');
  return (
    <div className="connect">
      {found?.cleverTools && (
        <button
          type="button"
          className="primary"
          disabled={busy}
          onClick={() => void connect({ source: 'clever-tools' })}
        >
          Use the clever-tools login found on this machine
        </button>
      )}
      {found?.environment && (
        <button
          type="button"
          className="primary"
          disabled={busy}
          onClick={() => void connect({ source: 'environment' })}
        >
          Use CLEVER_TOKEN / CLEVER_SECRET
        </button>
      )}
      <form onSubmit={submit} className="grid" noValidate>
        <label htmlFor={`${id}-token`}>Token</label>
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
        <label htmlFor={`${id}-secret`}>Secret</label>
        <div>
          <input
            id={`${id}-secret`}
            type="password"
            autoComplete="off"
            value={secret}
            onChange={(e) => setSecret(e.target.value)}
          />
          <span className="hint">With an OAuth token only; an API token has none.</span>
        </div>
        <div />
        <div>
          <button type="submit" disabled={busy}>
            {busy ? 'Checking…' : 'Connect'}
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
