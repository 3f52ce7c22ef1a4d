/**
 * The admin API's bearer token: REAPER_ADMIN_TOKEN when set, else a random token generated once and
 * kept in the data directory, in a file only its owner can read. Compared in constant time.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const TOKEN_FILE = 'admin-token';
const MIN_LENGTH = 16;

export interface AdminToken {
  token: string;
  /** Where it comes from: the environment variable, or the file of the data directory. */
  source: 'environment' | 'file';
  file: string | null;
}

/** The data directory, readable by its owner only. */
export function ensureDataDir(dataDir: string): void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
}

export function loadOrCreateToken(dataDir: string, env: NodeJS.ProcessEnv = process.env): AdminToken {
  const fromEnv = env.REAPER_ADMIN_TOKEN?.trim();
  if (fromEnv) {
    if (fromEnv.length < MIN_LENGTH) {
      throw new Error(`REAPER_ADMIN_TOKEN is too short: use at least ${MIN_LENGTH} characters`);
    }
    return { token: fromEnv, source: 'environment', file: null };
  }
  ensureDataDir(dataDir);
  const file = join(dataDir, TOKEN_FILE);
  try {
    const token = readFileSync(file, 'utf8').trim();
    if (token.length >= MIN_LENGTH) {
      // Someone widened its mode: put it back to owner-only.
      if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
      return { token, source: 'file', file };
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const token = randomBytes(32).toString('base64url');
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return { token, source: 'file', file };
}

/** Constant time, whatever the lengths (both sides are hashed first). */
export function sameToken(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/** The token of an `Authorization: Bearer ...` header, or null. */
export function bearerToken(header: string | undefined): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match ? match[1]! : null;
}
