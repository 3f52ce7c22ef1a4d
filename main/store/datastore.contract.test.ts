/**
 * The datastore contract (contract.ts), one suite run against both implementations: SQLite, and
 * PostgreSQL on a throwaway cluster (skipped, with the reason, where no PostgreSQL server exists
 * outside CI; in CI it must run).
 */
import { expect, it } from 'vitest';
import { type AppRecord, CAUSES, type HistoryEntry, newRecord } from '../../shared/domain.ts';
import { DAY, HOUR, MINUTE } from '../../shared/durations.ts';
import { type HistoryFilter, type HistoryRow, historyQuerySchema } from '../../shared/history.ts';
import { describeEachDatastore, type StoreFixture } from '../testing/datastores.ts';
import { historyEntry } from '../testing/fixtures.ts';
import { ConfigStore } from './config-store.ts';
import { LeaseLost, type ReaperStore, SchemaTooNew } from './contract.ts';
import { PG_MIGRATIONS } from './postgres/pg-schema.ts';
import { MIGRATIONS } from './sqlite/sqlite-schema.ts';

const T = Date.UTC(2026, 0, 5, 9);

/** A record with every field set, instants as large as epoch ms get. */
function fullRecord(appId: string): AppRecord {
  return {
    ...newRecord(appId, 'orga_acme', `name of ${appId}`, T),
    state: 'WaitingForUp',
    cameUpAt: T - DAY,
    lastRequestAt: T - 1,
    lastRequestSource: 'wake-proxy',
    stopAskedAt: T - HOUR,
    firstStartAskedAt: T - 2 * MINUTE,
    lastStartAskedAt: T - MINUTE,
    deploymentId: 'deployment_1',
    knownDeploymentId: 'deployment_0',
    cause: null,
    pendingCall: 'start',
    wakeRequestedAt: T - 3 * MINUTE,
    keepAwakeUntil: 8_640_000_000_000,
    releaseNoticedAt: T - 5,
    cleverState: 'SHOULD_BE_UP',
    lastDeployNumber: 2 ** 40,
    redeploySeenAt: T - 7,
    dryRunSleepNotedAt: T - 9,
    notice: "a notice with ünïcödé and 'quotes'",
  };
}

/** A day of history over three apps, the same in both datastores; `app_c` is released at the end. */
function seed(): { records: AppRecord[]; history: HistoryEntry[] } {
  const records = ['app_a', 'app_b', 'app_c'].map((id) => newRecord(id, 'orga_acme', `${id}-name`, T));
  const history: HistoryEntry[] = [];
  const actors = ['reaper', 'request', 'schedule', 'outside', 'operator'] as const;
  for (let i = 0; i < 60; i++) {
    const appId = records[i % 3]!.appId;
    const at = T + Math.floor(i / 2) * MINUTE; // two entries share each instant: ids break the tie
    const cycle = Math.floor(i / 3) % 6; // each app goes through the six steps in turn
    if (cycle === 0)
      history.push(historyEntry(appId, at, { from: 'Up', to: 'WaitingForShutdown', actor: actors[i % 5]! }));
    else if (cycle === 1)
      history.push(historyEntry(appId, at, { kind: 'stop-asked', from: null, to: null, reason: 'asked' }));
    else if (cycle === 2) history.push(historyEntry(appId, at, { from: 'WaitingForShutdown', to: 'Down' }));
    else if (cycle === 3)
      history.push(historyEntry(appId, at, { from: 'Down', to: 'WaitingForUp', actor: 'request' }));
    else if (cycle === 4)
      history.push(historyEntry(appId, at, { from: 'WaitingForUp', to: 'Up', actor: 'request' }));
    else
      history.push(
        historyEntry(appId, at, { from: 'Up', to: 'Error', reason: `${CAUSES.startFailed} (#${i})` }),
      );
  }
  history.push(historyEntry('app_c', T + DAY, { kind: 'release', from: 'Up', to: null, actor: 'operator' }));
  return { records, history };
}

async function load(store: ReaperStore) {
  const { records, history } = seed();
  for (const r of records) await store.commit({ upsert: r, history: [] });
  // One entry per commit, in order: ids grow with the position in `history`.
  for (const h of history) await store.commit({ history: [h] });
  await store.commit({ remove: 'app_c', history: [] });
}

/** The answer both datastores must give: filter the seeded entries in memory, newest first. */
function expected(filter: HistoryFilter): { appId: string; at: number; kind: string; reason: string }[] {
  const { history } = seed();
  return history
    .map((h, i) => ({ ...h, i }))
    .filter(
      (h) =>
        (filter.appId === undefined || h.appId === filter.appId) &&
        (filter.state === undefined || h.to === filter.state || h.from === filter.state) &&
        (filter.cause === undefined ||
          (h.to === 'Error' && h.reason.toLowerCase().startsWith(filter.cause.toLowerCase()))) &&
        (filter.actor === undefined || h.actor === filter.actor) &&
        (filter.kind === undefined || h.kind === filter.kind) &&
        (filter.from === undefined || h.at >= filter.from) &&
        (filter.to === undefined || h.at < filter.to),
    )
    .sort((a, b) => b.at - a.at || b.i - a.i)
    .map((h) => ({ appId: h.appId, at: h.at, kind: h.kind, reason: h.reason }));
}

const FILTERS: HistoryFilter[] = [
  {},
  { appId: 'app_b' },
  { state: 'Down' },
  { actor: 'request' },
  { kind: 'stop-asked' },
  { cause: CAUSES.startFailed.toUpperCase() },
  { cause: '100%_' },
  { from: T + 10 * MINUTE, to: T + 20 * MINUTE },
  { appId: 'app_a', state: 'Up', from: T + 5 * MINUTE },
];

describeEachDatastore(
  (name) => `the ${name} datastore`,
  (fixture, kind) => {
    let f: StoreFixture;
    const open = async () => {
      f = await fixture();
      return f.store;
    };

    it('round-trips records with every field, nulls and large instants, and removes them', async () => {
      const store = await open();
      const full = fullRecord('app_full');
      const bare = newRecord('app_bare', 'user_me', 'bare', T);
      await store.commit({ upsert: full, history: [historyEntry('app_full', T)] });
      await store.commit({ upsert: bare, history: [] });
      const byId = (rs: AppRecord[]) => [...rs].sort((a, b) => a.appId.localeCompare(b.appId));
      expect(byId(await store.loadRecords())).toEqual([bare, full]);
      await store.commit({ upsert: { ...full, state: 'Up', pendingCall: null }, history: [] });
      expect((await store.loadRecords()).find((r) => r.appId === 'app_full')?.state).toBe('Up');
      await store.commit({
        remove: 'app_bare',
        history: [historyEntry('app_bare', T + 1, { kind: 'release', to: null })],
      });
      expect((await store.loadRecords()).map((r) => r.appId)).toEqual(['app_full']);
      const restarted = await f.reopen();
      expect((await restarted.loadRecords()).map((r) => r.appId)).toEqual(['app_full']);
      const [last] = await restarted.historyOf('app_bare');
      expect(last).toMatchObject({ appId: 'app_bare', at: T + 1, kind: 'release', from: 'Up', to: null });
      expect(typeof last?.id).toBe('number');
    });

    it('keeps who asked for a manual action (by), in both commit forms, and none for the others', async () => {
      const store = await open();
      const alice = { name: 'alice', via: 'dashboard' } as const;
      const bob = { name: 'bob', via: 'tray' } as const;
      await store.commit({
        upsert: newRecord('app_by', 'orga_acme', 'by', T),
        history: [
          historyEntry('app_by', T, { kind: 'reset', actor: 'operator', by: alice }),
          historyEntry('app_by', T + 1, { actor: 'reaper' }),
        ],
      });
      // A batch of commits (PostgreSQL writes a batch as one statement, a single one in steps).
      await store.commit([
        { history: [historyEntry('app_by', T + 2, { kind: 'keep-awake', actor: 'operator', by: bob })] },
        { history: [historyEntry('app_by', T + 3, { actor: 'operator', by: alice })] },
      ]);
      const reopened = await f.reopen();
      const kept = (await reopened.historyOf('app_by')).map((e) => e.by ?? null);
      expect(kept).toEqual([alice, bob, null, alice]);
      const page = await reopened.queryHistory(historyQuerySchema.parse({ appId: 'app_by', limit: 10 }));
      expect(page.entries.map((e) => e.by ?? null)).toEqual([alice, bob, null, alice]);
    });

    it("keeps a known deployment '' (an empty list was read) apart from null (none read)", async () => {
      const store = await open();
      const empty = { ...newRecord('app_empty', 'orga_acme', 'empty', T), knownDeploymentId: '' };
      const unread = newRecord('app_unread', 'orga_acme', 'unread', T);
      await store.commit({ upsert: empty, history: [] });
      await store.commit({ upsert: unread, history: [] });
      const known = async (s: ReaperStore) =>
        Object.fromEntries((await s.loadRecords()).map((r) => [r.appId, r.knownDeploymentId]));
      expect(await known(store)).toEqual({ app_empty: '', app_unread: null });
      expect(await known(await f.reopen())).toEqual({ app_empty: '', app_unread: null });
    });

    it('commits all or nothing: a failure in the middle of a commit leaves nothing written', async () => {
      const store = await open();
      await store.commit({
        upsert: newRecord('app_1', 'orga_acme', 'one', T),
        history: [historyEntry('app_1', T)],
      });
      const broken = { ...historyEntry('app_1', T + 2), actor: null } as unknown as HistoryEntry;
      await expect(
        store.commit({
          upsert: { ...newRecord('app_1', 'orga_acme', 'one', T), state: 'Down' },
          history: [historyEntry('app_1', T + 1), broken],
        }),
      ).rejects.toThrow();
      await expect(store.commit({ remove: 'app_1', history: [broken] })).rejects.toThrow();
      expect((await store.loadRecords()).map((r) => [r.appId, r.state])).toEqual([
        ['app_1', 'WaitingForInit'],
      ]);
      expect((await store.historyOf('app_1')).map((e) => e.at)).toEqual([T]);
    });

    it('gives the same answers to the same history queries, pages and exports included', async () => {
      const store = await open();
      await load(store);
      for (const filter of FILTERS) {
        const want = expected(filter);
        const pages: HistoryRow[] = [];
        let cursor: string | undefined;
        do {
          const page = await store.queryHistory(
            historyQuerySchema.parse({ ...filter, limit: 7, ...(cursor ? { cursor } : {}) }),
          );
          pages.push(...page.entries);
          cursor = page.nextCursor ?? undefined;
        } while (cursor);
        const shape = (rows: HistoryRow[]) =>
          rows.map((r) => ({ appId: r.appId, at: r.at, kind: r.kind, reason: r.reason }));
        expect(shape(pages), JSON.stringify(filter)).toEqual(want);
        const exported: HistoryRow[] = [];
        for await (const rows of store.iterateHistory(filter, 5)) exported.push(...rows);
        expect(shape(exported)).toEqual(want);
        expect(exported.every((r) => r.appName === `${r.appId}-name`)).toBe(true);
      }
      expect(await store.appNames()).toEqual(
        new Map(['app_a', 'app_b', 'app_c'].map((id) => [id, { name: `${id}-name`, ownerId: 'orga_acme' }])),
      );
      const { initial, changes } = await store.stateChanges(T + 8 * MINUTE, T + DAY + 1);
      expect(initial).toEqual(
        new Map([
          ['app_a', 'Error'],
          ['app_b', 'Up'],
          ['app_c', 'Up'],
        ]),
      );
      const { history } = seed();
      const counted = history.filter((h) => h.at >= T + 8 * MINUTE && h.kind !== 'stop-asked');
      expect(changes.map((c) => [c.appId, c.at, c.to])).toEqual(
        counted.map((h) => [h.appId, h.at, h.kind === 'release' ? null : h.to]),
      );
      // Who made each change: the savings count only the sleeps the reaper caused.
      expect(changes.map((c) => c.actor)).toEqual(counted.map((h) => h.actor));
      expect(await store.transitionDurations('app_a', 'start')).toEqual([2 * MINUTE, 2 * MINUTE, 2 * MINUTE]);
      expect(await store.transitionDurations('app_a', 'stop', 2)).toEqual([3 * MINUTE, 3 * MINUTE]);
      const since = await store.historySince(T + 29 * MINUTE);
      expect(since.map((e) => e.at)).toEqual([T + 29 * MINUTE, T + 29 * MINUTE, T + DAY]);
      expect(since[0]!.id!).toBeLessThan(since[1]!.id!);
    });

    it('deletes history past retention in batches, oldest first, and nothing else', async () => {
      const store = await open();
      await load(store);
      const cutoff = T + 10 * MINUTE;
      const before = expected({ to: cutoff }).length;
      let deleted = 0;
      for (let n = 1; n > 0; deleted += n) n = await store.deleteHistoryBefore(cutoff, 7);
      expect(deleted).toBe(before);
      expect((await store.queryHistory(historyQuerySchema.parse({ limit: 500 }))).entries.length).toBe(
        expected({}).length - before,
      );
      expect(await store.deleteHistoryBefore(cutoff, 7)).toBe(0);
    });

    it('keeps routes and settings for ConfigStore: written before applied, kept across a restart', async () => {
      const store = await open();
      const config = await ConfigStore.open(store.configBackend());
      const heard: string[] = [];
      config.onChange((c) => heard.push(c.kind));
      const route = await config.save((c) =>
        c.createRoute({ appId: 'app_1', ownerId: 'orga_acme', hosts: ['a.test'] }),
      );
      await config.save((c) => c.updateSettings({ dryRun: true }));
      expect(heard).toEqual(['routes', 'settings']);
      await expect(config.save((c) => c.updateSettings({ historyRetentionDays: 0 }))).rejects.toThrow();
      await expect(
        config.save((c) => c.createRoute({ appId: 'app_2', ownerId: 'orga_acme', hosts: ['a.test'] })),
      ).rejects.toThrow(/already routes/);
      expect(() => config.createRoute({ appId: 'app_3', ownerId: 'orga_acme' })).toThrow(
        /through ConfigStore.save/,
      );
      const other = await ConfigStore.open(store.configBackend());
      const otherHeard: string[] = [];
      other.onChange((c) => otherHeard.push(c.kind));
      await other.save((c) => c.updateSettings({ dryRun: false }));
      await config.reload();
      expect(config.settings().dryRun).toBe(false);
      await config.reload();
      expect(heard).toEqual(['routes', 'settings', 'settings']);
      expect(otherHeard).toEqual(['settings']);
      await config.save((c) => c.updateSettings({ dryRun: true }));
      const again = await ConfigStore.open((await f.reopen()).configBackend());
      expect(again.routes()).toEqual([route]);
      expect(again.settings().dryRun).toBe(true);
      expect(again.settings().historyRetentionDays).toBe(config.settings().historyRetentionDays);
    });

    it('fences a guarded commit on the lease row: LeaseLost and nothing written unless it matches', async () => {
      const store = await open();
      const guard = { ownerId: 'orga_acme', holder: 'instance-a', token: 7 };
      const change = {
        upsert: newRecord('app_1', 'orga_acme', 'one', T),
        history: [historyEntry('app_1', T)],
      };
      await expect(store.commit(change, guard)).rejects.toBeInstanceOf(LeaseLost);
      await f.setLease({ ...guard, token: 8, expiresAt: Date.now() + 60_000 });
      await expect(store.commit(change, guard)).rejects.toThrow(/no longer held by instance-a/);
      await f.setLease({ ...guard, holder: 'instance-b', expiresAt: Date.now() + 60_000 });
      await expect(store.commit(change, guard)).rejects.toBeInstanceOf(LeaseLost);
      await f.setLease({ ...guard, expiresAt: Date.now() - 1 });
      await expect(store.commit(change, guard)).rejects.toBeInstanceOf(LeaseLost);
      expect(await store.loadRecords()).toEqual([]);
      expect(await store.historyOf('app_1')).toEqual([]);
      await f.setLease({ ...guard, expiresAt: Date.now() + 60_000 });
      await store.commit(change, guard);
      expect((await store.loadRecords()).map((r) => r.appId)).toEqual(['app_1']);
    });

    it('commits a batch in one transaction, the guard checked once: all written in order, or none', async () => {
      const store = await open();
      const guard = { ownerId: 'orga_acme', holder: 'instance-a', token: 3 };
      await store.commit({ upsert: newRecord('app_gone', 'orga_acme', 'gone', T), history: [] });
      // Awkward on purpose: entries out of time order, the same instant twice, a removal in the batch.
      const batch = [
        {
          upsert: fullRecord('app_2'),
          history: [historyEntry('app_2', T + 5), historyEntry('app_2', T + 1)],
        },
        { upsert: newRecord('app_1', 'orga_acme', 'one', T), history: [historyEntry('app_1', T + 1)] },
        { remove: 'app_gone', history: [historyEntry('app_gone', T + 1, { kind: 'release', to: null })] },
      ];
      await expect(store.commit(batch, guard)).rejects.toBeInstanceOf(LeaseLost);
      expect((await store.loadRecords()).map((r) => r.appId)).toEqual(['app_gone']);
      expect(await store.historySince(0)).toEqual([]);
      await f.setLease({ ...guard, expiresAt: Date.now() + 60_000 });
      await store.commit(batch, guard);
      const records = await store.loadRecords();
      expect(records.map((r) => r.appId).sort()).toEqual(['app_1', 'app_2']);
      expect(records.find((r) => r.appId === 'app_2')).toEqual(fullRecord('app_2'));
      // Every entry once, ids in the order of the batch.
      const written = (await store.historySince(0)).sort((a, b) => a.id! - b.id!);
      expect(written.map((e) => [e.appId, e.at, e.kind])).toEqual([
        ['app_2', T + 5, 'transition'],
        ['app_2', T + 1, 'transition'],
        ['app_1', T + 1, 'transition'],
        ['app_gone', T + 1, 'release'],
      ]);
      // A batch that names one app twice is written in order too (the later change wins).
      const twice = [
        {
          upsert: { ...newRecord('app_1', 'orga_acme', 'first', T) },
          history: [historyEntry('app_1', T + 7)],
        },
        {
          upsert: { ...newRecord('app_1', 'orga_acme', 'second', T) },
          history: [historyEntry('app_1', T + 8)],
        },
      ];
      await store.commit(twice, guard);
      expect((await store.loadRecords()).find((r) => r.appId === 'app_1')?.name).toBe('second');
      expect((await store.historyOf('app_1')).map((e) => e.at)).toEqual([T + 8, T + 7, T + 1]);
    });

    it('migrates once: a restart finds the schema current and the data kept', async () => {
      const store = await open();
      const latest = kind.name === 'sqlite' ? MIGRATIONS.length : PG_MIGRATIONS.length;
      expect(await store.schemaVersion()).toBe(latest);
      await store.commit({
        upsert: newRecord('app_1', 'orga_acme', 'one', T),
        history: [historyEntry('app_1', T)],
      });
      const again = await f.reopen();
      expect(await again.schemaVersion()).toBe(latest);
      expect((await again.historyOf('app_1')).length).toBe(1);
    });

    it('refuses a schema newer than it knows, naming both versions', async () => {
      await open();
      const latest = kind.name === 'sqlite' ? MIGRATIONS.length : PG_MIGRATIONS.length;
      await f.forgeSchemaVersion(latest + 3);
      const refused = f.open();
      await expect(refused).rejects.toBeInstanceOf(SchemaTooNew);
      await expect(refused).rejects.toThrow(`schema ${latest + 3}, this version knows ${latest}`);
    });

    it('keeps the webhook delivery state, the credentials status and the instance facts', async () => {
      const store = await open();
      const status = (url: string, delivered: number) => ({
        url,
        pending: 1,
        delivered,
        failed: 0,
        lastSuccessAt: T,
        lastFailureAt: null,
        lastError: null,
      });
      await store.saveWebhookStatus(status('https://b.test/hook', 1));
      await store.saveWebhookStatus(status('https://a.test/hook', 2));
      await store.saveWebhookStatus(status('https://b.test/hook', 3));
      expect(await store.webhookStatuses()).toEqual([
        status('https://a.test/hook', 2),
        status('https://b.test/hook', 3),
      ]);
      await store.forgetWebhooks(['https://b.test/hook']);
      expect((await store.webhookStatuses()).map((s) => s.url)).toEqual(['https://b.test/hook']);

      expect(await store.credentialsStatus()).toBeNull();
      const creds = { state: 'invalid' as const, account: 'ops@acme.test', problem: 'HTTP 401', at: T };
      await store.saveCredentialsStatus(creds);
      await store.saveCredentialsStatus({ ...creds, state: 'connected', problem: null });
      const facts = {
        appId: 'app_1',
        flavorName: 'XS',
        flavorPrice: 0.3436,
        minInstances: 1,
        maxInstances: 2,
        seenAt: T,
      };
      await store.writeAppFacts([facts, { ...facts, appId: 'app_2', flavorName: null, flavorPrice: null }]);
      await store.writeAppFacts([{ ...facts, maxInstances: 4 }]);
      const restarted = await f.reopen();
      expect(await restarted.credentialsStatus()).toEqual({ ...creds, state: 'connected', problem: null });
      expect((await restarted.webhookStatuses()).length).toBe(1);
      expect(await restarted.readAppFacts()).toEqual(
        new Map([
          ['app_1', { ...facts, maxInstances: 4 }],
          ['app_2', { ...facts, appId: 'app_2', flavorName: null, flavorPrice: null }],
        ]),
      );
    });
  },
);
