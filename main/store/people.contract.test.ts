/**
 * The people tables of the datastore contract (contract.ts, PeopleStore): tokens, sessions and the
 * audit, one suite run on SQLite and on PostgreSQL (a throwaway cluster).
 */
import { expect, it } from 'vitest';
import { describeEachDatastore } from '../testing/datastores.ts';
import { type StoredToken, TokenNameTaken } from './contract.ts';

const T = Date.UTC(2026, 0, 5, 9);

function token(id: string, name: string, fields: Partial<StoredToken> = {}): StoredToken {
  return {
    id,
    name,
    role: 'operator',
    salt: `salt-${id}`,
    hash: `hash-${id}`,
    createdAt: T,
    createdBy: 'bootstrap',
    expiresAt: null,
    revokedAt: null,
    ...fields,
  };
}

describeEachDatastore(
  (name) => `people on ${name}`,
  (fixture) => {
    const open = async () => (await fixture()).store.people();

    it('keeps tokens, refuses a second live one of a name, and takes the name again once revoked', async () => {
      const people = await open();
      const alice = token('tk_a', 'alice', { expiresAt: T + 30 * 86_400_000 });
      await people.addToken(alice);
      await people.addToken(token('tk_b', 'bob', { role: 'viewer', createdAt: T + 1 }));
      expect(await people.tokenById('tk_a')).toEqual(alice);
      expect(await people.tokenById('tk_none')).toBeNull();
      await expect(people.addToken(token('tk_a2', 'alice'))).rejects.toThrow(TokenNameTaken);

      const revoked = await people.revokeToken('alice', T + 5);
      expect(revoked).toEqual({ ...alice, revokedAt: T + 5 });
      expect(await people.revokeToken('alice', T + 6)).toBeNull();
      await people.addToken(token('tk_a3', 'alice', { createdAt: T + 7 }));
      expect((await people.tokens()).map((t) => [t.id, t.revokedAt])).toEqual([
        ['tk_a', T + 5],
        ['tk_b', null],
        ['tk_a3', null],
      ]);
    });

    it("ends a token's sessions when it is revoked, and a session once on sign-out", async () => {
      const people = await open();
      await people.addToken(token('tk_c', 'carol'));
      const session = (idHash: string, tokenId: string) => ({
        idHash,
        tokenId,
        csrf: `csrf-${idHash}`,
        createdAt: T,
        expiresAt: T + 86_400_000,
        endedAt: null,
      });
      await people.addSession(session('s1', 'tk_c'));
      await people.addSession(session('s2', 'tk_c'));
      await people.addSession(session('s3', 'bootstrap:abc'));
      expect(await people.session('s1')).toEqual(session('s1', 'tk_c'));
      expect(await people.endSession('s2', T + 1)).toBe(true);
      expect(await people.endSession('s2', T + 2)).toBe(false);
      await people.revokeToken('carol', T + 3);
      expect((await people.session('s1'))?.endedAt).toBe(T + 3);
      expect((await people.session('s2'))?.endedAt).toBe(T + 1);
      expect((await people.session('s3'))?.endedAt).toBeNull();
      expect(await people.session('nope')).toBeNull();
    });

    it('keeps the audit newest first, a page at a time, with before and after as they were', async () => {
      const people = await open();
      for (let i = 0; i < 5; i++) {
        await people.addAudit({
          at: T + i,
          by: i % 2 ? 'alice' : 'bob',
          via: 'dashboard',
          what: 'route',
          target: `route_${i}`,
          before: i === 0 ? null : { gracePeriodMs: i, name: 'ünï' },
          after: { gracePeriodMs: i + 1, list: [1, 'two'] },
        });
      }
      const first = await people.audit(3);
      expect(first.map((e) => e.target)).toEqual(['route_4', 'route_3', 'route_2']);
      expect(first[0]).toMatchObject({
        at: T + 4,
        by: 'bob',
        via: 'dashboard',
        before: { gracePeriodMs: 4, name: 'ünï' },
        after: { gracePeriodMs: 5, list: [1, 'two'] },
      });
      const next = await people.audit(3, first.at(-1)!.id);
      expect(next.map((e) => e.target)).toEqual(['route_1', 'route_0']);
      expect(next[1]!.before).toBeNull();
    });
  },
);
