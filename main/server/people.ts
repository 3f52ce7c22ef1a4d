/**
 * People on a server: personal tokens and browsers' sign-in sessions, checked for each request.
 *
 * - A personal token reads `crp_<id>_<secret>`: the id finds its row, the secret is checked against
 *   a salted scrypt hash (node:crypto, N=2^14, r=8, p=1, 32 bytes) in constant time. It is shown once,
 *   when created, and never kept nor logged.
 * - The bootstrap token (REAPER_ADMIN_TOKEN, or the generated file) is an admin named `bootstrap`.
 * - A session is a random cookie value; the datastore keeps its sha256 only. A session opened with
 *   the bootstrap token names the token's fingerprint: a new bootstrap token ends those sessions.
 * - What was checked is kept in memory until the bus says a token or a session changed (team mode: a
 *   revocation on one instance is heard by every other one at once), and for one second at most when
 *   there is no bus listening (so a revocation elsewhere takes effect within a second anyway).
 */
import { createHash, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { NotFoundError } from '../../shared/errors.ts';
import type { Log } from '../../shared/log.ts';
import { BOOTSTRAP_NAME, type Principal, type Role, type TokenInfo } from '../../shared/people.ts';
import type { PeopleStore, StoredToken } from '../store/contract.ts';
import { sameToken } from './token.ts';

const scryptAsync = promisify(scrypt) as (
  secret: string,
  salt: Buffer,
  length: number,
  options: { N: number; r: number; p: number },
) => Promise<Buffer>;
const SCRYPT = { N: 16_384, r: 8, p: 1 };
const TOKEN_PATTERN = /^crp_([0-9a-f]{16})_([A-Za-z0-9_-]{43})$/;
/** How long a sign-in session lasts (at most: a token that expires sooner ends it then). */
export const SESSION_MS = 12 * 3_600_000;
/** Without a bus listening, what was checked is kept this long at most. */
const UNHEARD_MS = 1000;

/** Announces changes of tokens and sessions (the team bus's `people` messages). */
export interface PeopleChanges {
  subscribe(listener: () => void): () => void;
  readonly listening: boolean;
}

export interface PeopleOptions {
  store: PeopleStore;
  bootstrap: string;
  changes?: PeopleChanges;
  /** Real time (epoch ms). */
  now?: () => number;
  log?: Log;
}

export interface SessionCheck {
  principal: Principal;
  csrf: string;
  expiresAt: number;
}

interface Kept<T> {
  value: T;
  generation: number;
  at: number;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('base64url');

export function tokenInfo(t: StoredToken): TokenInfo {
  return {
    name: t.name,
    role: t.role,
    createdAt: t.createdAt,
    createdBy: t.createdBy,
    expiresAt: t.expiresAt,
    revokedAt: t.revokedAt,
    lastUsedAt: null,
  };
}

export class People {
  private readonly options: PeopleOptions;
  private readonly now: () => number;
  private generation = 0;
  private readonly tokensKept = new Map<string, Kept<{ principal: Principal; token: StoredToken }>>();
  private readonly sessionsKept = new Map<string, Kept<SessionCheck>>();
  private readonly off: (() => void) | null;

  constructor(options: PeopleOptions) {
    this.options = options;
    this.now = options.now ?? Date.now;
    this.off = options.changes?.subscribe(() => this.forget()) ?? null;
  }

  get store(): PeopleStore {
    return this.options.store;
  }

  /** Forget every check made (a token or a session changed). */
  forget(): void {
    this.generation++;
    this.tokensKept.clear();
    this.sessionsKept.clear();
  }

  close(): void {
    this.off?.();
  }

  private fresh<T>(kept: Kept<T> | undefined): kept is Kept<T> {
    if (!kept || kept.generation !== this.generation) return false;
    return this.options.changes?.listening === true || this.now() - kept.at < UNHEARD_MS;
  }

  private bootstrapFingerprint(): string {
    return `bootstrap:${sha256(this.options.bootstrap).slice(0, 22)}`;
  }

  /** A new personal token: the token itself (shown once) and what is kept of it. */
  async createToken(
    input: { name: string; role: Role; expiresAt?: number | null },
    by: string,
  ): Promise<{ token: string; info: TokenInfo }> {
    const id = randomBytes(8).toString('hex');
    const secret = randomBytes(32).toString('base64url');
    const salt = randomBytes(16);
    const hash = (await scryptAsync(secret, salt, 32, SCRYPT)).toString('base64url');
    const stored: StoredToken = {
      id,
      name: input.name,
      role: input.role,
      salt: salt.toString('base64url'),
      hash,
      createdAt: this.now(),
      createdBy: by,
      expiresAt: input.expiresAt ?? null,
      revokedAt: null,
    };
    await this.options.store.addToken(stored);
    this.forget();
    return { token: `crp_${id}_${secret}`, info: tokenInfo(stored) };
  }

  async listTokens(): Promise<TokenInfo[]> {
    return (await this.options.store.tokens()).map(tokenInfo);
  }

  /** Revoke the live token of that name (its sessions end with it); NotFoundError when none. */
  async revokeToken(name: string): Promise<TokenInfo> {
    const revoked = await this.options.store.revokeToken(name, this.now());
    this.forget();
    if (!revoked) throw new NotFoundError(`a live token named '${name}'`);
    return tokenInfo(revoked);
  }

  /** Who a bearer token is, or null (unknown, wrong, revoked, expired). */
  async check(
    given: string,
  ): Promise<{ principal: Principal; tokenId: string; expiresAt: number | null } | null> {
    if (sameToken(given, this.options.bootstrap)) {
      return {
        principal: { name: BOOTSTRAP_NAME, role: 'admin' },
        tokenId: this.bootstrapFingerprint(),
        expiresAt: null,
      };
    }
    const match = TOKEN_PATTERN.exec(given);
    if (!match) return null;
    const key = sha256(given);
    let kept = this.tokensKept.get(key);
    if (!this.fresh(kept)) {
      const generation = this.generation;
      const token = await this.options.store.tokenById(match[1]!);
      if (!token) return null;
      const hash = await scryptAsync(match[2]!, Buffer.from(token.salt, 'base64url'), 32, SCRYPT);
      const expected = Buffer.from(token.hash, 'base64url');
      if (expected.length !== hash.length || !timingSafeEqual(hash, expected)) return null;
      kept = {
        value: { principal: { name: token.name, role: token.role }, token },
        generation,
        at: this.now(),
      };
      if (generation === this.generation) this.tokensKept.set(key, kept);
    }
    const { token, principal } = kept.value;
    if (token.revokedAt !== null || (token.expiresAt !== null && token.expiresAt <= this.now())) return null;
    return { principal, tokenId: token.id, expiresAt: token.expiresAt };
  }

  /** Open a sign-in session for a checked token: the cookie's value (never kept) and its CSRF token. */
  async openSession(checked: {
    tokenId: string;
    expiresAt: number | null;
  }): Promise<{ cookie: string; csrf: string; expiresAt: number }> {
    const cookie = randomBytes(32).toString('base64url');
    const csrf = randomBytes(24).toString('base64url');
    const now = this.now();
    const expiresAt = Math.min(now + SESSION_MS, checked.expiresAt ?? Number.MAX_SAFE_INTEGER);
    await this.options.store.addSession({
      idHash: sha256(cookie),
      tokenId: checked.tokenId,
      csrf,
      createdAt: now,
      expiresAt,
      endedAt: null,
    });
    return { cookie, csrf, expiresAt };
  }

  /** Who a session cookie is, or null (unknown, ended, expired, or its token revoked or expired). */
  async session(cookie: string): Promise<SessionCheck | null> {
    if (!/^[A-Za-z0-9_-]{43}$/.test(cookie)) return null;
    const key = sha256(cookie);
    let kept = this.sessionsKept.get(key);
    if (!this.fresh(kept)) {
      const generation = this.generation;
      const value = await this.readSession(key);
      if (!value) return null;
      kept = { value, generation, at: this.now() };
      if (generation === this.generation) this.sessionsKept.set(key, kept);
    }
    return kept.value.expiresAt > this.now() ? kept.value : null;
  }

  private async readSession(idHash: string): Promise<SessionCheck | null> {
    const s = await this.options.store.session(idHash);
    if (!s || s.endedAt !== null || s.expiresAt <= this.now()) return null;
    if (s.tokenId.startsWith('bootstrap:')) {
      if (s.tokenId !== this.bootstrapFingerprint()) return null;
      return { principal: { name: BOOTSTRAP_NAME, role: 'admin' }, csrf: s.csrf, expiresAt: s.expiresAt };
    }
    const token = await this.options.store.tokenById(s.tokenId);
    if (!token || token.revokedAt !== null) return null;
    if (token.expiresAt !== null && token.expiresAt <= this.now()) return null;
    return { principal: { name: token.name, role: token.role }, csrf: s.csrf, expiresAt: s.expiresAt };
  }

  /** Sign out: the session ends (on every instance: the bus says so). */
  async endSession(cookie: string): Promise<void> {
    await this.options.store.endSession(sha256(cookie), this.now());
    this.forget();
  }
}
