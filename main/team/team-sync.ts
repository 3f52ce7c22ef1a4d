/**
 * Team mode across instances, over the bus (bus.ts), what it names read through the datastore
 * (store/team-contract.ts, `TeamStore`):
 *
 * - Changes seen at once: a record written by another instance, and the history entries it added,
 *   are read as soon as the bus says so and given to the engine, which announces them (the dashboard's
 *   stream, the waking page). Messages are gathered while a read runs, so a burst costs one read of
 *   the records and one of the entries. Routes, rules and settings saved elsewhere are read again.
 * - Requests handed over: a request for an app whose owner another instance acts on is kept in the
 *   datastore for that instance and announced; the holder acts on it at once and then forgets it. A
 *   request left when its holder died is found by the instance that takes the owner over. A wake goes
 *   at once; plain traffic (an awake app) at most once per `trafficEveryMs` per app; traffic from the
 *   access logs not at all (every instance follows the same logs: the holder sees it itself).
 * - After the bus reconnects, what it may have missed is read again: the records of the owners this
 *   instance does not act on, the entries added meanwhile, the routes and settings, the requests.
 */
import { UnavailableError } from '../../shared/api-errors.ts';
import { assertNever, type HistoryEntry } from '../../shared/domain.ts';
import { describeError, type Log } from '../../shared/log.ts';
import { actingAs } from '../engine/acting.ts';
import type { HandOverAnswer } from '../engine/core.ts';
import type { Engine, HandedRequest } from '../engine/engine.ts';
import type { BusMessage, ForwardedRequest, TeamStore, WaitingRequest } from '../store/team-contract.ts';
import type { TeamBus } from './bus.ts';
import { HANDED_ACTION_TIMEOUT_MS, outcomeOf } from './handover.ts';
import { IntentOutbox, OUTBOX_MAX, type OutboxEntry } from './intent-outbox.ts';

export interface TeamSyncOptions {
  bus: TeamBus;
  /** What the bus's messages name, read from the datastore. */
  store: TeamStore;
  engine: () => Engine;
  /** Routes and settings: read again when another instance saved them. */
  reloadConfig: () => Promise<void>;
  /** Whether this instance acts on the owner's apps now (its lease). */
  acts: (ownerId: string) => boolean;
  /** The owners this instance acts on now. */
  activeOwners: () => string[];
  /** Plain traffic of one app is handed over at most once per this (real ms; default 2 s). */
  trafficEveryMs?: number;
  /**
   * How long a request handed over is kept (real ms), here while the datastore is away and then in
   * it, until the owner's holder acts on it (default DEFAULT_INTENT_TTL_MS; compose.ts gives the
   * fail timeout and 5 minutes, so that a wake kept that long could still end Up or in Error).
   */
  intentTtlMs?: () => number;
  log?: Log;
}

/** A request handed over is kept this long when no time to live is given (real ms). */
export const DEFAULT_INTENT_TTL_MS = 20 * 60_000;

/** How many history ids are remembered as announced (a catch-up after a drop skips them). */
const SEEN_IDS = 5000;
/** A catch-up after a drop reads the entries from this many ids before the highest seen. */
const CATCH_UP_MARGIN = 500;

export class TeamSync {
  private readonly options: TeamSyncOptions;
  private off: (() => void) | null = null;
  private stopped = false;
  // What the messages named, gathered until the next read.
  private readonly apps = new Set<string>();
  private ranges: [number, number][] = [];
  private config = false;
  private readonly requestOwners = new Set<string>();
  private catchUp = false;
  private running: Promise<void> | null = null;
  private retry: ReturnType<typeof setTimeout> | null = null;
  private again = false;
  /** History ids announced, oldest first (bounded), and the highest. */
  private readonly seen = new Set<number>();
  private highest = 0;
  /** Set at the first connection: where the history is announced from. */
  private baseline = false;
  /** Requests under way here (a message and a round may name the same). */
  private readonly inFlight = new Set<number>();
  /** Requests acted on lately (a read that began before they were forgotten may still list them). */
  private readonly doneIds = new Set<number>();
  /** The requests being acted on (awaited by stop). */
  private readonly acting = new Set<Promise<void>>();
  /** Per app: when its last request was handed over, and what waits for the next. */
  private readonly sent = new Map<
    string,
    { at: number; asked: boolean; next: ForwardedRequest | null; timer: ReturnType<typeof setTimeout> | null }
  >();

  /** Requests handed over, not written yet (the datastore away). */
  private readonly outbox: IntentOutbox;

  constructor(options: TeamSyncOptions) {
    this.options = options;
    this.outbox = new IntentOutbox({
      publish: (request) => options.bus.publish(request),
      ttlMs: () => this.ttlMs(),
      ...(options.log ? { log: options.log } : {}),
    });
  }

  /** Listen to the bus (its first `connected` message sets where the history is read from). */
  start(): void {
    this.off = this.options.bus.subscribe((m) => this.heard(m));
    if (this.options.bus.listening) {
      this.catchUp = true;
      this.schedule();
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.off?.();
    if (this.retry) clearTimeout(this.retry);
    for (const s of this.sent.values()) if (s.timer) clearTimeout(s.timer);
    this.sent.clear();
    await this.outbox.stop();
    await this.running; // never rejects: a failed read is logged and tried again
    await Promise.all(this.acting);
  }

  // ---- requests handed over -------------------------------------------------------------------

  /** The engine's request for an app another instance acts on (EngineDeps.elsewhere). */
  forward(request: ForwardedRequest & { asks: boolean }): void {
    if (this.stopped) return;
    const { asks, ...kept } = request;
    // An operator's action goes at once, always.
    if (kept.action) {
      this.send(kept);
      return;
    }
    if (!asks && request.source === 'access-log') return;
    const now = Date.now();
    const every = this.options.trafficEveryMs ?? 2000;
    const s = this.sent.get(request.appId);
    // A wake goes at once unless one went within the window; plain traffic once per window.
    if (!s || now - s.at >= every || (asks && !s.asked)) {
      if (s?.timer) clearTimeout(s.timer);
      this.sent.set(request.appId, { at: now, asked: asks, next: null, timer: null });
      this.send(kept);
      return;
    }
    s.next = kept;
    s.timer ??= setTimeout(
      () => {
        s.timer = null;
        const next = s.next;
        s.next = null;
        if (!next || this.stopped) return;
        s.at = Date.now();
        s.asked = false;
        this.send(next);
      },
      Math.max(0, s.at + every - now),
    );
    if (this.sent.size > 10_000) this.forgetSent(now - every);
  }

  /**
   * An operator's action on an app another instance acts on (EngineDeps.handOver): published at
   * once; resolves once its outcome reaches this instance's engine (handover.ts).
   */
  async handOver(request: HandedRequest): Promise<HandOverAnswer> {
    const answered = new AbortController();
    const seen = outcomeOf(
      (listener) => this.options.engine().on(listener),
      request,
      HANDED_ACTION_TIMEOUT_MS,
      answered.signal,
    );
    let keptHere = () => {};
    const kept = new Promise<'kept'>((resolve) => {
      keptHere = () => resolve('kept');
    });
    const { name: _name, by, ...rest } = request;
    const handed: ForwardedRequest = by ? { ...rest, by } : rest;
    // Left unwritten (expired, or this instance stopped): the app no longer shows it pending.
    const lapsed = () => this.options.engine().handOverLapsed(request.appId, request.action);
    const entry = this.stopped ? null : this.send(handed, keptHere, lapsed);
    try {
      if (!entry) {
        throw new UnavailableError(
          `the ${request.action.kind} of ${request.name} was not handed over: ${this.stopped ? 'this instance is stopping' : `${OUTBOX_MAX} requests already wait for the datastore`}`,
        );
      }
      return await Promise.race([seen.then(() => 'acted' as const), kept]);
    } catch (error) {
      // No outcome in time and still not written (the datastore never answered): kept here.
      if (entry && this.outbox.holds(entry)) return 'kept';
      throw error;
    } finally {
      answered.abort();
    }
  }

  /** These owners were just taken: the requests left for them are acted on. */
  takeOver(ownerIds: readonly string[]): void {
    for (const o of ownerIds) this.requestOwners.add(o);
    this.schedule();
  }

  /** Each lease round: requests still waiting for the owners acted on (one that failed is tried again). */
  round(): void {
    for (const o of this.options.activeOwners()) this.requestOwners.add(o);
    this.schedule();
  }

  /** Hand a request over: written at once, or kept here while the datastore is away (intent-outbox.ts). */
  private send(request: ForwardedRequest, keptHere?: () => void, lapsed?: () => void): OutboxEntry | null {
    return this.outbox.send(request, keptHere, lapsed);
  }

  /** How many handed-over requests wait to be written (the datastore away), and how many were not kept. */
  get outboxFacts(): { waiting: number; dropped: number; expired: number } {
    return this.outbox.facts;
  }

  private ttlMs(): number {
    return this.options.intentTtlMs?.() ?? DEFAULT_INTENT_TTL_MS;
  }

  private forgetSent(before: number): void {
    for (const [appId, s] of this.sent) if (s.at < before && !s.timer) this.sent.delete(appId);
  }

  // ---- messages ---------------------------------------------------------------------------------

  private heard(m: BusMessage): void {
    switch (m.kind) {
      case 'state':
        if (!m.own && !this.options.acts(m.ownerId)) this.apps.add(m.appId);
        break;
      case 'history':
        if (!m.own) this.ranges.push([m.from, m.to]);
        else this.highest = Math.max(this.highest, m.to);
        break;
      case 'config':
        if (!m.own) this.config = true;
        break;
      case 'request':
        if (this.options.acts(m.ownerId)) this.requestOwners.add(m.ownerId);
        break;
      case 'connected':
        this.catchUp = true;
        break;
      case 'people':
        return; // the server's sign-in checks hear it (server/people.ts), not the engine
      default:
        assertNever(m);
    }
    this.schedule();
  }

  /** One read at a time; messages heard meanwhile are read by the next. */
  private schedule(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.readNow()
      .catch((error: unknown) => {
        // What this read was to announce is read again by a catch-up, in a second.
        this.options.log?.(
          'warn',
          `the changes of the other instances could not be read (again in 1 s): ${describeError(error)}`,
        );
        this.catchUp = true;
        if (!this.retry) {
          this.retry = setTimeout(() => {
            this.retry = null;
            this.schedule();
          }, 1000);
        }
      })
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          this.schedule();
        }
      });
  }

  private async readNow(): Promise<void> {
    const { store } = this.options;
    const engine = this.options.engine();
    const catchUp = this.catchUp;
    const config = this.config || catchUp;
    const apps = [...this.apps];
    const ranges = this.ranges;
    const owners = [...this.requestOwners];
    this.catchUp = false;
    this.config = false;
    this.apps.clear();
    this.ranges = [];
    this.requestOwners.clear();

    if (config) await this.options.reloadConfig();
    if (catchUp) {
      const others = [...new Set(engine.list().map((r) => r.ownerId))].filter((o) => !this.options.acts(o));
      await engine.reloadOwners(others);
      for (const o of this.options.activeOwners()) owners.push(o);
    }
    // The history first, then the records of every app it names: one commit's NOTIFYs may arrive in
    // either order (the history's before the record's), and an entry must not be announced (a
    // handed-over action resolved on it) before the record it goes with is applied.
    const history = await this.newEntries(ranges, catchUp);
    for (const e of history) {
      const record = engine.get(e.appId);
      if (!record || !this.options.acts(record.ownerId)) apps.push(e.appId);
    }
    const wanted = [...new Set(apps)];
    if (wanted.length) {
      const records = await store.recordsOf(wanted);
      const found = new Set(records.map((r) => r.appId));
      engine.observed({ records, removed: wanted.filter((a) => !found.has(a)) });
    }
    if (history.length) engine.observed({ history });
    // Not awaited: a wake's start call must not hold the next changes back.
    if (owners.length) this.track(this.actOnRequests([...new Set(owners)]));
  }

  /**
   * One request or action handed over, done by this instance's engine as the person who asked for it
   * at the other instance (its history entry names them), or as nobody.
   */
  private act(engine: Engine, r: WaitingRequest): Promise<void> {
    return actingAs(r.by ?? null, () => this.actNow(engine, r));
  }

  private async actNow(engine: Engine, r: WaitingRequest): Promise<void> {
    const action = r.action;
    if (!action) {
      await engine.request(r.appId, r.source, r.at, true);
      return;
    }
    switch (action.kind) {
      // Handed over already: a refusal leaves it in the datastore for the next round.
      case 'keepAwake':
        await engine.keepAwake(r.appId, action.until, r.source, true);
        return;
      case 'reset':
        await engine.reset(r.appId, true);
        return;
      case 'release':
        await engine.releaseNow(r.appId, true);
        return;
      default:
        assertNever(action);
    }
  }

  private track(work: Promise<void>): void {
    const run: Promise<void> = work
      .catch((error: unknown) => {
        this.options.log?.('warn', `the requests handed over could not be read: ${describeError(error)}`);
      })
      .finally(() => {
        this.acting.delete(run);
      });
    this.acting.add(run);
  }

  /** The entries of these ranges, and after a drop those added meanwhile; each announced once. */
  private async newEntries(ranges: [number, number][], catchUp: boolean): Promise<HistoryEntry[]> {
    const { store } = this.options;
    const engine = this.options.engine();
    const out: HistoryEntry[] = [];
    if (ranges.length) {
      const from = Math.min(...ranges.map((r) => r[0]));
      const to = Math.max(...ranges.map((r) => r[1]));
      const inRange = (id: number) => ranges.some(([f, t]) => id >= f && id <= t);
      for (const e of await store.historyBetween(from, to)) if (inRange(e.id!)) out.push(e);
    }
    if (catchUp) {
      if (!this.baseline) {
        // The first connection: entries are announced from now on.
        this.baseline = true;
        this.highest = Math.max(this.highest, await store.lastHistoryId());
      } else {
        for (const e of await store.historyAfter(Math.max(0, this.highest - CATCH_UP_MARGIN), 5000)) {
          // Entries of the owners acted on here were announced by this instance's own engine.
          const owner = engine.get(e.appId)?.ownerId;
          if (owner !== undefined && this.options.acts(owner)) continue;
          out.push(e);
        }
      }
    }
    const fresh: HistoryEntry[] = [];
    for (const e of out.sort((a, b) => a.id! - b.id!)) {
      const id = e.id!;
      if (this.seen.has(id)) continue;
      this.seen.add(id);
      this.highest = Math.max(this.highest, id);
      fresh.push(e);
    }
    if (this.seen.size > SEEN_IDS) {
      const drop = this.seen.size - SEEN_IDS;
      let i = 0;
      for (const id of this.seen) {
        if (i++ >= drop) break;
        this.seen.delete(id);
      }
    }
    return fresh;
  }

  /**
   * The requests waiting for these owners (those this instance acts on), each acted on, then
   * forgotten. One that fails stays for the next round; one for an app unknown here is forgotten.
   */
  private async actOnRequests(ownerIds: string[]): Promise<void> {
    const held = ownerIds.filter((o) => this.options.acts(o));
    if (!held.length) return;
    const { store } = this.options;
    const engine = this.options.engine();
    const waiting = (await store.waiting(held, this.ttlMs())).filter(
      (r) => !this.inFlight.has(r.id) && !this.doneIds.has(r.id),
    );
    if (!waiting.length) return;
    for (const r of waiting) this.inFlight.add(r.id);
    const done: number[] = [];
    await Promise.all(
      waiting.map(async (r) => {
        try {
          if (!engine.get(r.appId)) {
            done.push(r.id);
            return;
          }
          await this.act(engine, r);
          // Lost the owner meanwhile: the request stays for the instance that took it.
          if (this.options.acts(r.ownerId)) done.push(r.id);
        } catch (error) {
          this.options.log?.(
            'warn',
            `a request handed over for ${r.appId} failed (tried again): ${describeError(error)}`,
          );
        }
      }),
    );
    try {
      await store.done(done);
      for (const id of done) this.doneIds.add(id);
      if (this.doneIds.size > 1000) {
        for (const id of [...this.doneIds].slice(0, this.doneIds.size - 1000)) this.doneIds.delete(id);
      }
    } finally {
      for (const r of waiting) this.inFlight.delete(r.id);
    }
  }
}
