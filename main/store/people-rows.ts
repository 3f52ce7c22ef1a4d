/**
 * The rows of the people tables (tokens, sessions, audit) as both datastores read them: the same
 * columns on SQLite and PostgreSQL (migration 5 of each).
 */
import type { AuditEntry, AuditFilter, Role, Via } from '../../shared/people.ts';
import type { StoredSession, StoredToken } from './contract.ts';

export const TOKEN_COLUMNS = 'id, name, role, salt, hash, created_at, created_by, expires_at, revoked_at';
export const SESSION_COLUMNS = 'id_hash, token_id, csrf, created_at, expires_at, ended_at';
export const AUDIT_COLUMNS = 'id, at, by_name, via, what, target, before, after';

type Row = Record<string, unknown>;
const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

export function toToken(r: Row): StoredToken {
  return {
    id: String(r.id),
    name: String(r.name),
    role: r.role as Role,
    salt: String(r.salt),
    hash: String(r.hash),
    createdAt: Number(r.created_at),
    createdBy: String(r.created_by),
    expiresAt: num(r.expires_at),
    revokedAt: num(r.revoked_at),
  };
}

export function tokenValues(t: StoredToken): (string | number | null)[] {
  return [t.id, t.name, t.role, t.salt, t.hash, t.createdAt, t.createdBy, t.expiresAt, t.revokedAt];
}

export function toSession(r: Row): StoredSession {
  return {
    idHash: String(r.id_hash),
    tokenId: String(r.token_id),
    csrf: String(r.csrf),
    createdAt: Number(r.created_at),
    expiresAt: Number(r.expires_at),
    endedAt: num(r.ended_at),
  };
}

export function sessionValues(s: StoredSession): (string | number | null)[] {
  return [s.idHash, s.tokenId, s.csrf, s.createdAt, s.expiresAt, s.endedAt];
}

const parse = (v: unknown): unknown => (v === null || v === undefined ? null : JSON.parse(String(v)));

export function toAudit(r: Row): AuditEntry {
  return {
    id: Number(r.id),
    at: Number(r.at),
    by: String(r.by_name),
    via: r.via as Via,
    what: String(r.what),
    target: r.target === null ? null : String(r.target),
    before: parse(r.before),
    after: parse(r.after),
  };
}

export function auditValues(e: Omit<AuditEntry, 'id'>): (string | number | null)[] {
  const text = (v: unknown) => (v === null || v === undefined ? null : JSON.stringify(v));
  return [e.at, e.by, e.via, e.what, e.target, text(e.before), text(e.after)];
}

/**
 * The audit's query in SQL, the same on both stores (only the placeholders differ: `?` on SQLite,
 * `$1`… on PostgreSQL): newest first, ids below the cursor, each filter a condition on its column.
 */
export function auditSql(
  limit: number,
  beforeId: number | undefined,
  filter: AuditFilter,
  placeholder: (n: number) => string,
): { sql: string; values: (string | number)[] } {
  const values: (string | number)[] = [beforeId ?? Number.MAX_SAFE_INTEGER];
  const conditions = [`id < ${placeholder(1)}`];
  const add = (condition: string, value: string | number | undefined) => {
    if (value === undefined) return;
    values.push(value);
    conditions.push(`${condition} ${placeholder(values.length)}`);
  };
  add('what =', filter.what);
  add('by_name =', filter.by);
  add('target =', filter.target);
  add('via =', filter.via);
  add('at >=', filter.from);
  add('at <=', filter.to);
  values.push(limit);
  return {
    sql: `SELECT ${AUDIT_COLUMNS} FROM audit WHERE ${conditions.join(' AND ')} ORDER BY id DESC LIMIT ${placeholder(values.length)}`,
    values,
  };
}

/** A unique index's refusal (SQLite: "UNIQUE constraint failed"; PostgreSQL: 23505). */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown };
  return e?.code === '23505' || (typeof e?.message === 'string' && e.message.includes('UNIQUE constraint'));
}
