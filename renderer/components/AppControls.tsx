/** The app's controls that ask before acting: disable the reaper, keep awake until. */
import { useEffect, useRef, useState } from 'react';
import type { AppView } from '../../shared/app-view.ts';
import { HOUR } from '../../shared/durations.ts';
import { ACTION_LABELS } from '../lib/explain.ts';
import { clockTime } from '../lib/format.ts';
import { useDashboard } from '../store/context.tsx';
import { errorText } from '../store/dashboard-store.ts';
import { useActionsBlocked } from './ActionButton.tsx';

export function DisableReaper({ app }: { app: AppView }) {
  const act = useDashboard((s) => s.act);
  const busy = useDashboard((s) => s.busy[app.appId] ?? null);
  const blocked = useActionsBlocked();
  const [confirming, setConfirming] = useState(false);
  const confirmRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (confirming) confirmRef.current?.focus();
  }, [confirming]);
  if (!confirming) {
    return (
      <button
        type="button"
        className="danger-outline"
        disabled={blocked !== null}
        title={blocked ?? undefined}
        onClick={() => setConfirming(true)}
      >
        Disable the reaper
      </button>
    );
  }
  return (
    // biome-ignore lint/a11y/useSemanticElements: a confirmation inside the panel, not a form
    <div className="confirm" role="group" aria-label="Confirm: disable the reaper">
      <p>
        Disable the reaper for {app.name}? Its routes are switched off and it is released at once
        {app.state === 'Down' ? ': it is started first, so it is not left asleep' : ''}.
      </p>
      <button
        ref={confirmRef}
        type="button"
        className="danger"
        disabled={busy !== null || blocked !== null}
        aria-busy={busy === 'release' || undefined}
        title={blocked ?? undefined}
        onClick={() => void act(app.appId, 'release').finally(() => setConfirming(false))}
      >
        {busy === 'release' && <span className="spinner" aria-hidden="true" />}
        {busy === 'release' ? ACTION_LABELS.release.busy : ACTION_LABELS.release.idle}
      </button>
      <button type="button" onClick={() => setConfirming(false)}>
        Cancel
      </button>
    </div>
  );
}

const PRESETS = [
  { label: '1 hour', ms: HOUR },
  { label: '3 hours', ms: 3 * HOUR },
  { label: '8 hours', ms: 8 * HOUR },
];

/** "Keep awake until ...": a preset or a date and time; no sleep before it (a sleeping app is woken). */
export function KeepAwake({ app, now }: { app: AppView; now: number }) {
  const keepAwake = useDashboard((s) => s.keepAwake);
  const busy = useDashboard((s) => s.busy[app.appId] === 'keep-awake');
  const blocked = useActionsBlocked();
  const [custom, setCustom] = useState('');
  const [error, setError] = useState<string | null>(null);
  const run = async (until: number | null) => {
    setError(null);
    try {
      await keepAwake(app.appId, until);
    } catch (e) {
      setError(errorText(e));
    }
  };
  return (
    <section aria-labelledby="keep-heading" className="keep-awake">
      <h3 id="keep-heading">Keep awake</h3>
      {app.keepAwakeUntil !== null ? (
        <p>
          Kept awake until <strong>{clockTime(app.keepAwakeUntil, now)}</strong>{' '}
          <button type="button" className="link" disabled={busy} onClick={() => void run(null)}>
            Cancel
          </button>
        </p>
      ) : (
        <p className="muted">
          No sleep before a time you choose{app.state === 'Down' ? '; the app is woken now' : ''}.
        </p>
      )}
      <div className="row-of-buttons">
        {PRESETS.map((p) => (
          <button
            key={p.label}
            type="button"
            disabled={busy || blocked !== null}
            aria-busy={busy || undefined}
            title={blocked ?? undefined}
            onClick={() => void run(now + p.ms)}
          >
            {p.label}
          </button>
        ))}
        <form
          className="inline-form"
          onSubmit={(e) => {
            e.preventDefault();
            const t = new Date(custom).getTime();
            if (!custom || Number.isNaN(t)) setError('choose a date and a time');
            else void run(t);
          }}
        >
          <label>
            <span className="visually-hidden">Keep awake until</span>
            <input type="datetime-local" value={custom} onChange={(e) => setCustom(e.target.value)} />
          </label>
          <button type="submit" disabled={busy || blocked !== null} title={blocked ?? undefined}>
            Keep awake until
          </button>
        </form>
      </div>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
