/**
 * Which reaper the dashboard talks to, and (desktop app) the switch between this computer's engine
 * and a team server: the header's label, and the "Team server" card of Settings and of the first-run
 * screen. Connecting checks the address and the token against the server before anything changes;
 * going back to local is one click.
 */
import { type FormEvent, useEffect, useId, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { problemsOf } from '../../../shared/api-errors.ts';
import { type ConsoleState, checkServerUrl } from '../../../shared/team-console.ts';
import { errorText } from '../../lib/errors.ts';
import { useApi, useDashboard } from '../../store/context.tsx';
import { RunButton } from '../common/form.tsx';

/** An address to show the form of one (the same in every language). */
const EXAMPLE_URL = 'https://reaper.example.com';

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
  const { t } = useTranslation('shell');
  const api = useApi();
  const state = useConsoleState();
  let text: string | null = null;
  let host: string | null = null;
  let title = '';
  if (state?.mode === 'local') {
    text = t('where.local');
    title = t('where.localTitle');
  } else if (state?.mode === 'team') {
    host = state.host;
    text = t('where.team', { host });
    title = t('where.teamTitle', { url: state.url });
  } else if (api.serverHost) {
    host = api.serverHost;
    text = t('where.server', { host });
    title = t('where.serverTitle', { host: api.serverHost });
  }
  if (!text) return null;
  // "Server · host": where the header is narrow the host alone is shown (styles.css), the kind read out.
  const at = host ? text.lastIndexOf(host) : -1;
  return (
    <span className="mode where" title={title} data-testid="mode-label">
      {at > 0 ? (
        <>
          <span className="where-kind">{text.slice(0, at)}</span>
          {text.slice(at)}
        </>
      ) : (
        text
      )}
    </span>
  );
}

/** The "Team server" card: connect (address and admin token), or back to this computer. */
export function TeamServerPanel() {
  const { t } = useTranslation('settings');
  const control = useApi().console;
  const state = useConsoleState();
  if (!control || !state) return null;
  return (
    <section className="card" aria-labelledby="team-server-title">
      <h2 id="team-server-title">{t('team.title')}</h2>
      {state.mode === 'team' ? <Following state={state} /> : <ConnectTeamServer />}
    </section>
  );
}

function Following({ state }: { state: Extract<ConsoleState, { mode: 'team' }> }) {
  const { t } = useTranslation('settings');
  const control = useApi().console!;
  return (
    <div>
      <p>
        <Trans
          t={t}
          i18nKey="team.following"
          values={{ host: state.host, url: state.url }}
          components={[<strong key="host" />]}
        />{' '}
        {state.connection === 'live'
          ? t('team.live')
          : state.connection === 'unauthorized'
            ? t('team.refused')
            : t('team.reconnecting')}
      </p>
      <RunButton
        run={() => control.switchToLocal()}
        label={t('team.useLocal')}
        busyLabel={t('team.startingLocal')}
      />
    </div>
  );
}

export function ConnectTeamServer() {
  const { t } = useTranslation('settings');
  const control = useApi().console!;
  const perform = useDashboard((s) => s.perform);
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
      ...(token.trim() ? {} : { token: t('team.tokenMissing') }),
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
      <p className="muted">{t('team.intro')}</p>
      <form
        onSubmit={(e) => perform(() => submit(e))}
        className="grid"
        noValidate
        aria-label={t('team.formLabel')}
      >
        <label htmlFor={`${id}-url`}>{t('team.address')}</label>
        <div>
          <input
            id={`${id}-url`}
            type="url"
            placeholder={EXAMPLE_URL}
            value={url}
            onChange={(e) => setUrl(e.target.value)}
            aria-invalid={urlProblems.length ? true : undefined}
          />
          {urlProblems.length > 0 && <span className="field-error">{urlProblems.join('; ')}</span>}
        </div>
        <label htmlFor={`${id}-token`}>{t('team.token')}</label>
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
          <span className="hint">{t('team.tokenHint')}</span>
        </div>
        <div />
        <div>
          <button type="submit" disabled={busy}>
            {busy ? t('team.checking') : t('team.connect')}
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
