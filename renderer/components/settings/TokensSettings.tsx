/**
 * Settings > Tokens (issue 25), for an admin of a team server: a personal token per person, with a
 * role and an optional expiry; the secret shown once, to copy; the list (who made each, when, its
 * expiry, revoked or not); revoke after the app's own confirmation. The inputs are checked as the
 * server checks them (shared/people-schemas.ts; zod is loaded with Settings, not the first screen).
 */
import { type FormEvent, useCallback, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DAY } from '../../../shared/durations.ts';
import { ROLES, type Role, type TokenInfo } from '../../../shared/people.ts';
import { tokenCreateSchema } from '../../../shared/people-schemas.ts';
import type { SessionControl } from '../../api/dashboard-api.ts';
import { errorText } from '../../lib/errors.ts';
import { fullTime } from '../../lib/format.ts';
import { useAccess } from '../../store/access.tsx';
import { useApi, useDashboard } from '../../store/context.tsx';
import { ConfirmDialog } from '../common/ConfirmDialog.tsx';

const EXPIRIES = [0, 7, 30, 90, 365] as const;

/** Shown to an admin signed in to a server that has personal tokens; nothing otherwise. */
export function TokensSettings() {
  const access = useAccess();
  const control = useApi().session;
  if (!control || access.kind !== 'person' || access.info.role !== 'admin') return null;
  return <Tokens control={control} />;
}

function Tokens({ control }: { control: SessionControl }) {
  const { t } = useTranslation(['settings', 'common']);
  const [tokens, setTokens] = useState<TokenInfo[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [created, setCreated] = useState<{ token: string; info: TokenInfo } | null>(null);
  const [revoking, setRevoking] = useState<string | null>(null);
  const load = useCallback(
    () =>
      control.listTokens().then(
        (list) => {
          setTokens(list);
          setLoadError(null);
        },
        (error: unknown) => setLoadError(errorText(error)),
      ),
    [control],
  );
  useEffect(() => {
    load().catch((error: unknown) => setLoadError(errorText(error)));
  }, [load]);
  return (
    <section className="card tokens" aria-labelledby="tokens-title">
      <h2 id="tokens-title">{t('tokens.title')}</h2>
      <p className="hint">{t('tokens.intro')}</p>
      <CreateToken
        control={control}
        onCreated={(answer) => {
          setCreated(answer);
          load().catch((error: unknown) => setLoadError(errorText(error)));
        }}
      />
      {created && <CreatedSecret created={created} onDismiss={() => setCreated(null)} />}
      {loadError && (
        <p className="field-error" role="alert">
          {loadError}
        </p>
      )}
      {tokens && tokens.length === 0 && <p className="muted">{t('tokens.none')}</p>}
      {tokens && tokens.length > 0 && (
        <table className="tokens-table">
          <caption className="visually-hidden">{t('tokens.title')}</caption>
          <thead>
            <tr>
              <th scope="col" className="token-cell">
                {t('tokens.name')}
              </th>
              <th scope="col" className="token-cell">
                {t('tokens.role')}
              </th>
              <th scope="col" className="token-cell">
                {t('tokens.created')}
              </th>
              <th scope="col" className="token-cell">
                {t('tokens.expires')}
              </th>
              <th scope="col" className="token-cell">
                {t('tokens.state')}
              </th>
              <th scope="col" className="token-cell">
                <span className="visually-hidden">{t('tokens.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {tokens.map((token) => (
              <tr key={token.name} data-token={token.name}>
                <th scope="row" className="token-cell">
                  {token.name}
                </th>
                <td className="token-cell">{t(`common:roles.${token.role}`)}</td>
                <td className="token-cell">
                  {t('tokens.createdBy', { by: token.createdBy, at: fullTime(token.createdAt) })}
                </td>
                <td className="token-cell">
                  {token.expiresAt === null ? t('tokens.noExpiry') : fullTime(token.expiresAt)}
                </td>
                <td className="token-cell">
                  {token.revokedAt !== null
                    ? t('tokens.revokedAt', { at: fullTime(token.revokedAt) })
                    : token.expiresAt !== null && token.expiresAt <= Date.now()
                      ? t('tokens.expired')
                      : t('tokens.active')}
                </td>
                <td className="token-cell">
                  {token.revokedAt === null && (
                    <button
                      type="button"
                      className="danger-outline"
                      aria-label={t('tokens.revokeOf', { name: token.name })}
                      onClick={() => setRevoking(token.name)}
                    >
                      {t('tokens.revoke')}
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {revoking && (
        <ConfirmRevoke
          name={revoking}
          revoke={async () => {
            await control.revokeToken(revoking);
            await load();
          }}
          close={() => setRevoking(null)}
        />
      )}
    </section>
  );
}

function CreateToken({
  control,
  onCreated,
}: {
  control: SessionControl;
  onCreated: (answer: { token: string; info: TokenInfo }) => void;
}) {
  const { t } = useTranslation(['settings', 'common']);
  const perform = useDashboard((s) => s.perform);
  const id = useId();
  const [name, setName] = useState('');
  const [role, setRole] = useState<Role>('viewer');
  const [days, setDays] = useState<number>(0);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const input = { name: name.trim(), role, expiresAt: days ? Date.now() + days * DAY : null };
    if (!tokenCreateSchema.safeParse(input).success) {
      setProblem(t('tokens.badName'));
      return;
    }
    setProblem(null);
    setBusy(true);
    try {
      onCreated(await control.createToken(input));
      setName('');
    } catch (error) {
      setProblem(errorText(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="tokens-create" onSubmit={(e) => perform(() => submit(e))} noValidate>
      <div className="field">
        <label htmlFor={`${id}-name`}>{t('tokens.name')}</label>
        <input
          id={`${id}-name`}
          value={name}
          autoComplete="off"
          spellCheck={false}
          aria-invalid={problem ? true : undefined}
          aria-describedby={`${id}-hint`}
          onChange={(e) => setName(e.target.value)}
        />
        <span className="hint" id={`${id}-hint`}>
          {problem ? <span className="field-error">{problem}</span> : t('tokens.nameHint')}
        </span>
      </div>
      <div className="field">
        <label htmlFor={`${id}-role`}>{t('tokens.role')}</label>
        <select id={`${id}-role`} value={role} onChange={(e) => setRole(e.target.value as Role)}>
          {ROLES.map((r) => (
            <option key={r} value={r}>
              {t(`common:roles.${r}`)}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-expiry`}>{t('tokens.expiry')}</label>
        <select id={`${id}-expiry`} value={days} onChange={(e) => setDays(Number(e.target.value))}>
          {EXPIRIES.map((d) => (
            <option key={d} value={d}>
              {d === 0 ? t('tokens.noExpiry') : t('tokens.days', { count: d })}
            </option>
          ))}
        </select>
      </div>
      <div className="form-actions">
        <button type="submit" className="primary" disabled={busy}>
          {t('tokens.create')}
        </button>
      </div>
    </form>
  );
}

/** The new token's secret, once: copy it now, it is never shown again. */
function CreatedSecret({
  created,
  onDismiss,
}: {
  created: { token: string; info: TokenInfo };
  onDismiss: () => void;
}) {
  const { t } = useTranslation('settings');
  const [copied, setCopied] = useState<boolean | null>(null);
  const copy = () =>
    navigator.clipboard.writeText(created.token).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  return (
    <div className="callout token-secret" role="status" data-testid="token-secret">
      <p>
        <strong>{t('tokens.shownOnce', { name: created.info.name })}</strong>
      </p>
      <code className="secret">{created.token}</code>
      <div className="form-actions">
        <button
          type="button"
          onClick={() => {
            copy().catch(() => setCopied(false));
          }}
        >
          {t('tokens.copy')}
        </button>
        <button type="button" className="link" onClick={onDismiss}>
          {t('tokens.done')}
        </button>
        {copied === true && <span className="ok">{t('tokens.copied')}</span>}
        {copied === false && <span className="field-error">{t('tokens.copyFailed')}</span>}
      </div>
    </div>
  );
}

function ConfirmRevoke({
  name,
  revoke,
  close,
}: {
  name: string;
  revoke: () => Promise<void>;
  close: () => void;
}) {
  const { t } = useTranslation(['settings', 'common']);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const act = () => {
    setBusy(true);
    revoke().then(close, (e: unknown) => {
      setBusy(false);
      setError(errorText(e));
    });
  };
  return (
    <ConfirmDialog
      title={t('tokens.revokeTitle', { name })}
      body={t('tokens.revokeBody', { name })}
      confirmLabel={t('tokens.revoke')}
      cancelLabel={t('common:buttons.cancel')}
      focus="confirm"
      busy={busy}
      error={error}
      onConfirm={act}
      onCancel={close}
    />
  );
}
