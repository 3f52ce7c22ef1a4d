/**
 * The browser dashboard's sign-in session (issue 25): the token is given once (the #token= fragment
 * or the token screen), exchanged for the server's session cookie (HttpOnly: the page never sees it),
 * and forgotten. Every later request, in this tab or a new one, goes with the cookie; a change also
 * carries the session's CSRF token, which the sign-in and "who am I" answers give.
 *
 * A mark in localStorage (not a secret: "this browser was signed in") tells a session that ended
 * (expired, revoked, signed out elsewhere) from a first visit, so the token screen can say which.
 */
import { PEOPLE_ROUTES, type SessionInfo } from '../../shared/people.ts';

const SIGNED_IN_MARK = 'clever-reaper.signed-in';

/** Why the token screen is shown. */
export type SignInFailure =
  /** No session and no token: a first visit. */
  | { kind: 'none' }
  /** The session ended (expired, revoked, signed out in another tab). */
  | { kind: 'ended' }
  /** The token was refused (wrong, revoked or expired). */
  | { kind: 'refused' }
  /** Too many wrong tokens from this address: wait this many seconds. */
  | { kind: 'wait'; seconds: number }
  /** The server could not be reached, or answered something else. */
  | { kind: 'unavailable'; message: string };

export type SessionAnswer = { ok: true; info: SessionInfo } | { ok: false; failure: SignInFailure };

function storageOf(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

export function markSignedIn(signedIn: boolean, storage: Storage | null = storageOf()): void {
  if (signedIn) storage?.setItem(SIGNED_IN_MARK, '1');
  else storage?.removeItem(SIGNED_IN_MARK);
}

function wasSignedIn(storage: Storage | null = storageOf()): boolean {
  return storage?.getItem(SIGNED_IN_MARK) === '1';
}

async function answerOf(res: Response, signingIn: boolean): Promise<SessionAnswer> {
  if (res.ok) {
    const info = (await res.json()) as SessionInfo;
    markSignedIn(info.by === 'session');
    return { ok: true, info };
  }
  if (res.status === 429) {
    const seconds = Math.max(1, Number(res.headers.get('retry-after')) || 1);
    return { ok: false, failure: { kind: 'wait', seconds } };
  }
  if (res.status === 401) {
    if (signingIn) return { ok: false, failure: { kind: 'refused' } };
    const ended = wasSignedIn();
    markSignedIn(false);
    return { ok: false, failure: { kind: ended ? 'ended' : 'none' } };
  }
  return { ok: false, failure: { kind: 'unavailable', message: `HTTP ${res.status}` } };
}

async function ask(run: () => Promise<Response>, signingIn: boolean): Promise<SessionAnswer> {
  let res: Response;
  try {
    res = await run();
  } catch (error) {
    return { ok: false, failure: { kind: 'unavailable', message: (error as Error).message } };
  }
  return answerOf(res, signingIn);
}

/** POST /api/session with the token: the cookie is set by the answer. */
export function signIn(doFetch: typeof fetch, baseUrl: string, token: string): Promise<SessionAnswer> {
  return ask(
    () =>
      doFetch(`${baseUrl}${PEOPLE_ROUTES.signIn.path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token: token.trim() }),
        cache: 'no-store',
      }),
    true,
  );
}

/** GET /api/session: who the cookie (or the bearer header) is, and the session's CSRF token. */
export function whoami(
  doFetch: typeof fetch,
  baseUrl: string,
  headers: Record<string, string> = {},
): Promise<SessionAnswer> {
  return ask(
    () =>
      doFetch(`${baseUrl}${PEOPLE_ROUTES.whoami.path}`, {
        headers: { accept: 'application/json', ...headers },
        cache: 'no-store',
      }),
    false,
  );
}
