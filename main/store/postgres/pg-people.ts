/**
 * The people tables (contract.ts, PeopleStore) on PostgreSQL: one statement each (a revocation: one
 * transaction ending the token's sessions with it). Their triggers (migration 5) announce each change
 * on the bus (kind 'p'), so every instance forgets what it had checked of tokens and sessions.
 */
import type pg from 'pg';
import { type PeopleStore, TokenNameTaken } from '../contract.ts';
import {
  auditSql,
  auditValues,
  isUniqueViolation,
  SESSION_COLUMNS,
  sessionValues,
  TOKEN_COLUMNS,
  toAudit,
  tokenValues,
  toSession,
  toToken,
} from '../people-rows.ts';

const params = (n: number) => Array.from({ length: n }, (_, i) => `$${i + 1}`).join(', ');

export function pgPeople(pool: pg.Pool): PeopleStore {
  return {
    async addToken(token) {
      try {
        await pool.query(`INSERT INTO tokens (${TOKEN_COLUMNS}) VALUES (${params(9)})`, tokenValues(token));
      } catch (error) {
        if (isUniqueViolation(error)) throw new TokenNameTaken(token.name);
        throw error;
      }
    },
    async tokenById(id) {
      const r = await pool.query(`SELECT ${TOKEN_COLUMNS} FROM tokens WHERE id = $1`, [id]);
      return r.rows[0] ? toToken(r.rows[0] as Record<string, unknown>) : null;
    },
    async tokens() {
      const r = await pool.query(`SELECT ${TOKEN_COLUMNS} FROM tokens ORDER BY created_at, id`);
      return r.rows.map((row) => toToken(row as Record<string, unknown>));
    },
    async revokeToken(name, at) {
      // One statement: the token revoked and its sessions ended together (one NOTIFY each, at commit).
      const r = await pool.query(
        `WITH revoked AS (
           UPDATE tokens SET revoked_at = $1 WHERE name = $2 AND revoked_at IS NULL RETURNING ${TOKEN_COLUMNS}
         ), ended AS (
           UPDATE sessions SET ended_at = $1 WHERE token_id IN (SELECT id FROM revoked) AND ended_at IS NULL
         )
         SELECT * FROM revoked`,
        [at, name],
      );
      return r.rows[0] ? toToken(r.rows[0] as Record<string, unknown>) : null;
    },
    async addSession(session) {
      await pool.query(
        `INSERT INTO sessions (${SESSION_COLUMNS}) VALUES (${params(6)})`,
        sessionValues(session),
      );
    },
    async session(idHash) {
      const r = await pool.query(`SELECT ${SESSION_COLUMNS} FROM sessions WHERE id_hash = $1`, [idHash]);
      return r.rows[0] ? toSession(r.rows[0] as Record<string, unknown>) : null;
    },
    async endSession(idHash, at) {
      const r = await pool.query(
        'UPDATE sessions SET ended_at = $1 WHERE id_hash = $2 AND ended_at IS NULL',
        [at, idHash],
      );
      return (r.rowCount ?? 0) > 0;
    },
    async addAudit(entry) {
      await pool.query(
        `INSERT INTO audit (at, by_name, via, what, target, before, after) VALUES (${params(7)})`,
        auditValues(entry),
      );
    },
    async audit(limit, beforeId, filter = {}) {
      const { sql, values } = auditSql(limit, beforeId, filter, (n) => `$${n}`);
      const r = await pool.query(sql, values);
      return r.rows.map((row) => toAudit(row as Record<string, unknown>));
    },
  };
}
