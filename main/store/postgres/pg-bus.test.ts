/**
 * The instances' bus on a throwaway PostgreSQL: each change another store commits is heard, named by
 * ids, and told apart from this instance's own; a request published is kept until done (pg-team-store.ts); the
 * connection, terminated by the server (pg_terminate_backend), listens again and says so.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newRecord } from '../../../shared/domain.ts';
import { withBusPair } from '../../testing/bus-pair.ts';
import {
  type PostgresCluster,
  postgresSkipReason,
  startPostgresCluster,
} from '../../testing/postgres-cluster.ts';
import type { BusMessage } from '../team-contract.ts';
import { BUS_CHANNEL } from './pg-bus.ts';
import { PgTeamStore, STALE_MS } from './pg-team-store.ts';

const skip = postgresSkipReason();

async function until<T>(what: string, probe: () => T | null | undefined | false, ms = 5000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = probe();
    if (value !== null && value !== undefined && value !== false) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe.skipIf(skip !== null)(`the instances' bus${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let cluster: PostgresCluster;
  beforeAll(async () => {
    cluster = await startPostgresCluster();
  }, 60_000);
  afterAll(() => cluster?.stop());

  it('hears the changes of another instance by id, its own told apart, and keeps requests until done', async () => {
    const url = await cluster.createDatabase();
    await withBusPair(url, async ({ mine, other, bus, heard }) => {
      const reads = new PgTeamStore(mine);
      expect(bus.listening).toBe(true);
      const record = newRecord('app_1', 'orga_1', 'review', 1000);
      await other.commit({
        upsert: record,
        history: [
          {
            appId: 'app_1',
            at: 1000,
            kind: 'transition',
            from: null,
            to: 'WaitingForInit',
            actor: 'operator',
            reason: 'a',
          },
          {
            appId: 'app_1',
            at: 1001,
            kind: 'keep-awake',
            from: null,
            to: null,
            actor: 'operator',
            reason: 'b',
          },
        ],
      });
      await other.configBackend().set('routes', []);
      await mine.commit({ upsert: { ...record, name: 'renamed' }, history: [] });
      const others = await until('the messages', () => {
        const seen = heard.filter((m) => m.kind !== 'connected');
        return seen.length >= 4 ? seen : null;
      });
      // One commit is one statement: its record's and its history's NOTIFYs come in either order.
      const [first, second, ...later] = others;
      expect([first, second]).toEqual(
        expect.arrayContaining([
          { kind: 'state', appId: 'app_1', ownerId: 'orga_1', own: false },
          { kind: 'history', from: expect.any(Number), to: expect.any(Number), own: false },
        ]),
      );
      expect(later).toEqual([
        { kind: 'config', key: 'routes', own: false },
        { kind: 'state', appId: 'app_1', ownerId: 'orga_1', own: true },
      ]);
      const range = others.find((m) => m.kind === 'history') as Extract<BusMessage, { kind: 'history' }>;
      expect(range.to - range.from).toBe(1);
      expect((await reads.historyBetween(range.from, range.to)).map((e) => e.reason)).toEqual(['a', 'b']);
      expect(await reads.lastHistoryId()).toBe(range.to);
      expect((await reads.recordsOf(['app_1', 'app_gone'])).map((r) => r.name)).toEqual(['renamed']);

      // a forwarded request: a row and a message, until done
      await bus.publish({ appId: 'app_1', ownerId: 'orga_1', source: 'wake-proxy', at: 2000 });
      const request = await until('the request', () => heard.find((m) => m.kind === 'request'));
      expect(request).toMatchObject({ ownerId: 'orga_1', own: true });
      const waiting = await reads.waiting(['orga_1']);
      expect(waiting).toEqual([
        { id: expect.any(Number), appId: 'app_1', ownerId: 'orga_1', source: 'wake-proxy', at: 2000 },
      ]);
      expect(await reads.waiting(['orga_2'])).toEqual([]);
      await reads.done(waiting.map((w) => w.id));
      expect(await reads.waiting(['orga_1'])).toEqual([]);

      // an operator's action keeps who asked for it (and through what) until done; a row of an
      // older version (no person) has none
      await bus.publish({
        appId: 'app_1',
        ownerId: 'orga_1',
        source: 'dashboard',
        at: 2500,
        action: { kind: 'reset' },
        by: { name: 'alice', via: 'dashboard' },
      });
      await bus.publish({
        appId: 'app_1',
        ownerId: 'orga_1',
        source: 'admin-api',
        at: 2600,
        action: { kind: 'keepAwake', until: 9000 },
      });
      const actions = await reads.waiting(['orga_1']);
      expect(actions).toEqual([
        {
          id: expect.any(Number),
          appId: 'app_1',
          ownerId: 'orga_1',
          source: 'dashboard',
          at: 2500,
          action: { kind: 'reset' },
          by: { name: 'alice', via: 'dashboard' },
        },
        {
          id: expect.any(Number),
          appId: 'app_1',
          ownerId: 'orga_1',
          source: 'admin-api',
          at: 2600,
          action: { kind: 'keepAwake', until: 9000 },
        },
      ]);
      await reads.done(actions.map((w) => w.id));

      // a request nobody acted on for STALE_MS is dropped, not acted on
      await bus.publish({ appId: 'app_1', ownerId: 'orga_1', source: 'wake-proxy', at: 3000 });
      await other.pool.query(`UPDATE wake_requests SET created_at = created_at - $1::bigint`, [
        STALE_MS + 1000,
      ]);
      expect(await reads.waiting(['orga_1'])).toEqual([]);
      expect((await other.pool.query('SELECT count(*)::int AS n FROM wake_requests')).rows).toEqual([
        { n: 0 },
      ]);
    });
  });

  it("names every record of a batch once: one message per owner of the statement's rows, split to fit a payload", async () => {
    const url = await cluster.createDatabase();
    await withBusPair(url, async ({ mine, other, heard }) => {
      const notified: string[] = [];
      const watcher = new pg.Client({ connectionString: url });
      await watcher.connect();
      watcher.on('notification', (n) => notified.push(n.payload ?? ''));
      await watcher.query(`LISTEN ${BUS_CHANNEL}`);
      try {
        // 400 apps of a long id (over 6,000 bytes of ids for orga_a) over two owners, in one commit,
        // interleaved; then the same apps written again (ON CONFLICT: updates), and some removed.
        const id = (i: number) => `app_${String(i).padStart(4, '0')}_${'x'.repeat(40)}`;
        const owner = (i: number) => (i % 4 === 0 ? 'orga_b' : 'orga_a');
        const apps = Array.from({ length: 400 }, (_, i) => newRecord(id(i), owner(i), `n${i}`, 1000));
        await other.commit(apps.map((r) => ({ upsert: r, history: [] })));
        await other.commit(apps.map((r) => ({ upsert: { ...r, name: `${r.name}!` }, history: [] })));
        await other.commit(apps.slice(0, 10).map((r) => ({ remove: r.appId, history: [] })));
        const states = () => heard.filter((m) => m.kind === 'state');
        await until('every state heard', () => states().length >= 810);
        const byCommit = [states().slice(0, 400), states().slice(400, 800), states().slice(800)];
        for (const [i, seen] of byCommit.entries()) {
          const expected = (i === 2 ? apps.slice(0, 10) : apps).map((r) => `${r.ownerId} ${r.appId}`).sort();
          expect(seen.map((m) => `${m.ownerId} ${m.appId}`).sort()).toEqual(expected);
          expect(seen.every((m) => !m.own)).toBe(true);
        }
        // One message per statement and owner, split when its ids would not fit one (8,000 bytes).
        // (the watcher's connection hears them on its own time: waited for, the removal's last)
        const payloads = await until('the watcher heard the three commits', () => {
          const seen = notified.filter((p) => p.includes('"S"'));
          return seen.length >= 10 ? seen : null;
        });
        expect(payloads.every((p) => Buffer.byteLength(p) < 8000)).toBe(true);
        const owners = payloads.map((p) => (JSON.parse(p) as { o: string; a: string[] }).o);
        // orga_b's 100 ids fit one payload, orga_a's 300 take three; the removal of 10: one each.
        const commits = [owners.slice(0, 4), owners.slice(4, 8), owners.slice(8)];
        expect(commits.map((c) => c.sort())).toEqual([
          ['orga_a', 'orga_a', 'orga_a', 'orga_b'],
          ['orga_a', 'orga_a', 'orga_a', 'orga_b'],
          ['orga_a', 'orga_b'],
        ]);
        // The names kept for every app, renamed by the second batch, kept after a removal.
        const names = await mine.appNames();
        expect(names.size).toBe(400);
        expect(names.get(id(0))).toEqual({ name: 'n0!', ownerId: 'orga_b' });
        expect(names.get(id(399))).toEqual({ name: 'n399!', ownerId: 'orga_a' });
        await until('no more messages', () => states().length === 810);
      } finally {
        await watcher.end();
      }
    });
  });

  it('listens again after its connection is terminated, and says so', async () => {
    const url = await cluster.createDatabase();
    await withBusPair(
      url,
      async ({ other, bus, heard }) => {
        const terminated = await other.pool.query<{ ok: boolean }>(
          `SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity WHERE application_name = 'clever-reaper bus mine'`,
        );
        expect(terminated.rows.map((r) => r.ok)).toEqual([true]);
        const started = Date.now();
        await until('listening again', () => heard.find((m) => m.kind === 'connected'));
        expect(heard[0]).toEqual({ kind: 'connected', first: false });
        expect(Date.now() - started).toBeLessThan(3000);
        expect(bus.listening).toBe(true);
        expect(bus.connections).toBe(2);
        await other.configBackend().set('settings', {});
        await until('a message on the new connection', () =>
          heard.find((m) => m.kind === 'config' && m.key === 'settings' && !m.own),
        );
      },
      { backoffMs: { first: 50, max: 500 } },
    );
  });
});
