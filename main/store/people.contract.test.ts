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

    it('filters the audit in SQL by what, by whom, which one, through what and when, a page at a time', async () => {
      const people = await open();
      // 60 entries: three people, two ways in, three kinds, out of order in time (at is not id's order).
      const whats = ['route', 'killSwitch', 'settings'] as const;
      const names = ['alice', 'bob', 'carol'] as const;
      const written: {
        id: number;
        at: number;
        by: string;
        via: string;
        what: string;
        target: string | null;
      }[] = [];
      for (let i = 0; i < 60; i++) {
        const entry = {
          at: T + ((i * 37) % 60) * 1000,
          by: names[i % 3]!,
          via: i % 4 === 0 ? ('api' as const) : ('dashboard' as const),
          what: whats[i % 5 === 0 ? 1 : i % 2 === 0 ? 0 : 2]!,
          target: i % 2 === 0 ? `route_${i % 6}` : null,
          before: null,
          after: { i },
        };
        await people.addAudit(entry);
        written.push({ ...entry, id: 0 });
      }
      const all = await people.audit(500);
      expect(all).toHaveLength(60);
      // Ids newest first; the entries as written, in reverse.
      all.forEach((e, k) => {
        written[59 - k]!.id = e.id;
      });
      const expected = (keep: (e: (typeof written)[number]) => boolean) =>
        written
          .filter(keep)
          .map((e) => e.id)
          .sort((a, b) => b - a);
      const paged = async (filter: Parameters<typeof people.audit>[2], size: number) => {
        const ids: number[] = [];
        let before: number | undefined;
        for (;;) {
          const page = await people.audit(size, before, filter);
          ids.push(...page.map((e) => e.id));
          if (page.length < size) return ids;
          before = page.at(-1)!.id;
        }
      };
      const from = T + 10_000;
      const to = T + 30_000;
      const cases: [Parameters<typeof people.audit>[2], (e: (typeof written)[number]) => boolean][] = [
        [{ what: 'route' }, (e) => e.what === 'route'],
        [{ by: 'bob' }, (e) => e.by === 'bob'],
        [{ what: 'settings', by: 'carol' }, (e) => e.what === 'settings' && e.by === 'carol'],
        [{ target: 'route_2' }, (e) => e.target === 'route_2'],
        [{ via: 'api' }, (e) => e.via === 'api'],
        [{ from, to }, (e) => e.at >= from && e.at <= to],
        [{ from: to }, (e) => e.at >= to],
        [{ to: from }, (e) => e.at <= from],
        [
          { by: 'alice', via: 'dashboard', from },
          (e) => e.by === 'alice' && e.via === 'dashboard' && e.at >= from,
        ],
        [{ by: 'nobody' }, () => false],
      ];
      for (const [filter, keep] of cases) {
        const want = expected(keep);
        // Pages of 4 (a filter never leaves a page short while older entries match), and in one.
        expect(await paged(filter, 4), JSON.stringify(filter)).toEqual(want);
        expect((await people.audit(500, undefined, filter)).map((e) => e.id)).toEqual(want);
      }
      // The cursor and a filter together: below an id, only what matches.
      const cut = all[20]!.id;
      expect((await people.audit(500, cut, { what: 'route' })).map((e) => e.id)).toEqual(
        expected((e) => e.what === 'route' && e.id < cut),
      );
    });
  },
);
