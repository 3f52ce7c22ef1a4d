/** The people tables (contract.ts, PeopleStore) on SQLite: one instance, no bus. */
import type { DatabaseSync } from 'node:sqlite';
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

type Row = Record<string, unknown>;

export function sqlitePeople(db: DatabaseSync, transaction: <T>(fn: () => T) => T): PeopleStore {
  return {
    async addToken(token) {
      try {
        db.prepare(`INSERT INTO tokens (${TOKEN_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`).run(
          ...tokenValues(token),
        );
      } catch (error) {
        if (isUniqueViolation(error)) throw new TokenNameTaken(token.name);
        throw error;
      }
    },
    async tokenById(id) {
      const row = db.prepare(`SELECT ${TOKEN_COLUMNS} FROM tokens WHERE id = ?`).get(id) as Row | undefined;
      return row ? toToken(row) : null;
    },
    async tokens() {
      const rows = db.prepare(`SELECT ${TOKEN_COLUMNS} FROM tokens ORDER BY created_at, id`).all() as Row[];
      return rows.map(toToken);
    },
    async revokeToken(name, at) {
      return transaction(() => {
        const row = db
          .prepare(
            `UPDATE tokens SET revoked_at = ? WHERE name = ? AND revoked_at IS NULL RETURNING ${TOKEN_COLUMNS}`,
          )
          .get(at, name) as Row | undefined;
        if (!row) return null;
        db.prepare('UPDATE sessions SET ended_at = ? WHERE token_id = ? AND ended_at IS NULL').run(
          at,
          row.id as string,
        );
        return toToken(row);
      });
    },
    async addSession(session) {
      db.prepare(`INSERT INTO sessions (${SESSION_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)`).run(
        ...sessionValues(session),
      );
    },
    async session(idHash) {
      const row = db.prepare(`SELECT ${SESSION_COLUMNS} FROM sessions WHERE id_hash = ?`).get(idHash) as
        | Row
        | undefined;
      return row ? toSession(row) : null;
    },
    async endSession(idHash, at) {
      const r = db
        .prepare('UPDATE sessions SET ended_at = ? WHERE id_hash = ? AND ended_at IS NULL')
        .run(at, idHash);
      return Number(r.changes) > 0;
    },
    async addAudit(entry) {
      db.prepare(
        'INSERT INTO audit (at, by_name, via, what, target, before, after) VALUES (?, ?, ?, ?, ?, ?, ?)',
      ).run(...auditValues(entry));
    },
    async audit(limit, beforeId, filter = {}) {
      const { sql, values } = auditSql(limit, beforeId, filter, () => '?');
      const rows = db.prepare(sql).all(...values) as Row[];
      return rows.map(toAudit);
    },
  };
}
