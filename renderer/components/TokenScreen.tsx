/** The headless dashboard opened without its token: paste it (the server printed it). */
import { type FormEvent, useState } from 'react';
import { Logo } from './icons.tsx';

export function TokenScreen({ onToken, refused }: { onToken: (token: string) => void; refused: boolean }) {
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
          Open the dashboard with the URL the server printed at start (it carries the admin token), or paste
          the token: it is in the <code>admin-token</code> file of the server's data directory, or in{' '}
          <code>REAPER_ADMIN_TOKEN</code>.
        </p>
        {refused && (
          <p className="field-error" role="alert">
            The server refused this token.
          </p>
        )}
        <label htmlFor="token">Admin token</label>
        <input
          id="token"
          type="password"
          autoComplete="off"
          value={token}
          onChange={(e) => setToken(e.target.value)}
        />
        <div className="form-actions">
          <button type="submit" className="primary">
            Open the dashboard
          </button>
        </div>
      </form>
    </main>
  );
}
