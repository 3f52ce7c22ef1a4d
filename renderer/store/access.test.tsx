/** One place decides what a role may do (store/access.tsx), and the token screen says why it is shown. */
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ROLES, roleAllows } from '../../shared/people.ts';
import type { SessionAnswer } from '../api/session.ts';
import { TokenScreen } from '../components/shell/TokenScreen.tsx';
import { i18n } from '../i18n.ts';
import { canOf } from './access.tsx';

const t = i18n.getFixedT('en') as unknown as (key: string, values?: object) => string;
const info = (role: (typeof ROLES)[number]) =>
  ({ name: 'alice', role, by: 'session', csrf: 'c', expiresAt: null }) as const;

describe('what a role may do', () => {
  it('allows by the order of roles, and says the role needed and the one signed in otherwise', () => {
    for (const have of ROLES) {
      for (const need of ROLES) {
        const can = canOf({ kind: 'person', info: info(have), signOut: async () => undefined }, need, t);
        expect(can.allowed).toBe(roleAllows(have, need));
        expect(can.reason).toBe(
          can.allowed ? undefined : `Needs the ${need} role: you are signed in as ${have}`,
        );
      }
    }
  });

  it('allows everything on the desktop engine, nothing while "who am I" is on its way', () => {
    for (const need of ROLES) {
      expect(canOf({ kind: 'local' }, need, t)).toEqual({ allowed: true, reason: undefined });
      expect(canOf({ kind: 'checking' }, need, t).allowed).toBe(false);
    }
  });
});

describe('the token screen', () => {
  it('shows a 429 as a wait with its seconds, the sign-in button disabled meanwhile', async () => {
    const answers: SessionAnswer[] = [{ ok: false, failure: { kind: 'wait', seconds: 30 } }];
    const asked: string[] = [];
    render(
      <TokenScreen
        failure={{ kind: 'none' }}
        signIn={async (token) => {
          asked.push(token);
          return answers.shift()!;
        }}
        onSignedIn={() => undefined}
      />,
    );
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Your token'), 'wrong');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(
      /^Too many wrong tokens from this address: wait (30|29)\s*s before trying again\.$/,
    );
    expect(screen.getByRole('button', { name: 'Sign in' })).toHaveProperty('disabled', true);
    expect(asked).toEqual(['wrong']);
  });

  it('says a session ended, and a refused token', async () => {
    render(
      <TokenScreen
        failure={{ kind: 'ended' }}
        signIn={async () => ({ ok: false, failure: { kind: 'refused' } })}
        onSignedIn={() => undefined}
      />,
    );
    expect(screen.getByRole('alert').textContent).toContain('Your session has ended: sign in again');
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Your token'), 'revoked');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The server refused this token (wrong, revoked or expired).',
    );
  });
});
