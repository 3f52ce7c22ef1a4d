/**
 * Which reaper the dashboard talks to, and (desktop app) the switch between this computer's engine
 * and a team server: the header's label, and the "Team server" card of Settings and of the first-run
 * screen. Connecting checks the address and the token against the server before anything changes;
 * going back to local is one click.
 */
import { type FormEvent, useEffect, useId, useState } from 'react';
import { problemsOf } from '../../shared/api-errors.ts';
import { type ConsoleState, checkServerUrl } from '../../shared/team-console.ts';
import { errorText } from '../lib/errors.ts';
import { useApi } from '../store/context.tsx';

/** The desktop's mode as the main process says it (null outside the desktop, or until known). */
export function useConsoleState(): ConsoleState | null {
  const control = useApi().console;
  const [state, setState] = useState<ConsoleState | null>(null);
  useEffect(() => {
    if (!control) return;
    let live = true;
    const off = control.onState((s) => live && setState(s));
    control.state().then(
      (s) => live && setState(s),
      () => undefined,
    );
    return () => {
      live = false;
      off();
    };
  }, [control]);
  return state;
}

/** The header's "where": Local, Team server · host, or (the headless server's dashboard) Server · host. */
export function ModeLabel() {
  const api = useApi();
  const state = useConsoleState();
  let text: string | null = null;
  let title = '';
  if (state?.mode === 'local') {
    text = 'Local';
    title = "This computer's engine";
  } else if (state?.mode === 'team') {
    text = `Team server · ${state.host}`;
    title = `The apps, the tray and the notifications come from ${state.url}`;
  } else if (api.serverHost) {
    text = `Server · ${api.serverHost}`;
    title = `The reaper at ${api.serverHost}`;
  }
  if (!text) return null;
  return (
    <span className="mode where" title={title} data-testid="mode-label">
      {text}
    </span>
  );
}

/** The "Team server" card: connect (address and admin token), or back to this computer. */
export function TeamServerPanel() {
  const control = useApi().console;
  const state = useConsoleState();
  if (!control || !state) return null;
  return (
    <section className="card" aria-labelledby="team-server-title">
      <h2 id="team-server-title">Team server</h2>
      {state.mode === 'team' ? <Following state={state} /> : <ConnectTeamServer />}
    </section>
  );
}

function Following({ state }: { state: Extract<ConsoleState, { mode: 'team' }> }) {
  const control = useApi().console!;
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <div>
      <p>
        This app is a console of <strong>{state.host}</strong> ({state.url}): its engine is off, and the apps,
        the tray and the notifications come from the team server.{' '}
        {state.connection === 'live'
          ? 'Connected.'
          : state.connection === 'unauthorized'
            ? 'The server refused the admin token: connect again with a valid one.'
            : 'Disconnected: reconnecting…'}
      </p>
      <button
        type="button"
        disabled={busy}
        onClick={() => {
          setBusy(true);
          setError(null);
          control.switchToLocal().then(
            () => setBusy(false),
            (e: unknown) => {
              setBusy(false);
              setError(errorText(e));
            },
          );
        }}
      >
        {busy ? 'Starting the local engine…' : "Use this computer's engine"}
      </button>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

export function ConnectTeamServer() {
  const control = useApi().console!;
  const [url, setUrl] = useState('');
  const [token, setToken] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [local, setLocal] = useState<{ url?: string; token?: string }>({});
  const [busy, setBusy] = useState(false);
  const id = useId();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    // Said at once, before asking the main process.
    const checked = checkServerUrl(url);
    const problems = {
      ...('problem' in checked ? { url: checked.problem } : {}),
      ...(token.trim() ? {} : { token: "Enter the team server's admin token" }),
    };
    setLocal(problems);
    setError(null);
    if (problems.url || problems.token) return;
    setBusy(true);
    try {
      await control.connect({ url, token });
      setToken('');
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  const urlProblems = local.url ? [local.url] : problemsOf(error, 'url');
  const tokenProblems = local.token ? [local.token] : problemsOf(error, 'token');
  const other = error && urlProblems.length + tokenProblems.length === 0 ? errorText(error) : null;
  return (
    <div>
      <p className="muted">
        Follow a headless reaper your team runs (a Clever Cloud app, a container): this computer's engine is
        turned off while connected.
      </p>
      <form
        onSubmit={(e) => void submit(e)}
        className="grid"
        noValidate
        aria-label="Connect to a team server"
      >
        <label htmlFor={`${id}-url`}>Address</label>
        <div>
          <input
            id={`${id}-url`}
            type="url"
            placeholder="https://reaper.example.com"
            value={url}
            onChange={(e) => setUrl(e.target.value)}
            aria-invalid={urlProblems.length ? true : undefined}
          />
          {urlProblems.length > 0 && <span className="field-error">{urlProblems.join('; ')}</span>}
        </div>
        <label htmlFor={`${id}-token`}>Admin token</label>
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
          <span className="hint">Kept with the OS keychain; checked against the server first.</span>
        </div>
        <div />
        <div>
          <button type="submit" disabled={busy}>
            {busy ? 'Checking…' : 'Connect to the team server'}
          </button>
          {other && (
            <p className="field-error" role="alert">
              {other}
            </p>
          )}
        </div>
      </form>
    </div>
  );
}
