/** The headless dashboard opened without its token: paste it (the server printed it). */
import { type FormEvent, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Logo } from '../common/icons.tsx';

export function TokenScreen({ onToken, refused }: { onToken: (token: string) => void; refused: boolean }) {
  const { t } = useTranslation('firstRun');
  const [token, setToken] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (token.trim()) onToken(token.trim());
  };
  return (
    <main className="first-run">
      <form className="card" onSubmit={submit}>
        <h1>
          <Logo size={28} /> Clever Reaper
        </h1>
        <p>
          <Trans t={t} i18nKey="token.text" components={[<code key="file" />, <code key="env" />]} />
        </p>
        {refused && (
          <p className="field-error" role="alert">
            {t('token.refused')}
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
          <button type="submit" className="primary">
            {t('token.open')}
          </button>
        </div>
      </form>
    </main>
  );
}
