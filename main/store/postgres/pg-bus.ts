/**
 * Team mode's bus on PostgreSQL (the port: team/bus.ts): one dedicated connection per instance LISTENs on the
 * channel `clever_reaper`, where triggers of the schema (migration 3, pg-schema.ts) NOTIFY at the
 * commit of each change of a record, of the history, of the routes and settings, and of each
 * forwarded request. A NOTIFY names the server process that sent it: a message from one of this
 * store's connections is this instance's own. The records written by one statement are named in one
 * message per owner (migration 5), each heard as one `state` message.
 *
 * The connection is watched (TCP keepalive, and a query when it has been silent for `pingMs`); once it
 * drops it is opened again after a backoff (from 100 ms, doubling, at most 5 s, with jitter), and the
 * subscribers hear `connected` again: what was published meanwhile was not heard and must be read.
 */
import pg from 'pg';
import { describeError, type Log } from '../../../shared/log.ts';
import type { BusMessage, ForwardedRequest } from '../team-contract.ts';
import { DB_NOW, type PostgresStore } from './pg-store.ts';
import { REAPER_TYPES } from './pg-types.ts';

export const BUS_CHANNEL = 'clever_reaper';

export interface PgBusOptions {
  store: PostgresStore;
  /** This instance (written with each forwarded request, for an operator reading the table). */
  instanceId: string;
  /** The connection's application_name (default `clever-reaper bus <instanceId>`). */
  applicationName?: string;
  /** Reconnection delays: the first, and the longest (default 100 ms and 5 s). */
  backoffMs?: { first: number; max: number };
  /** A connection silent this long is probed with a query (default 10 s). */
  pingMs?: number;
  log?: Log;
}

/** The bus port of team mode (team/bus.ts) on PostgreSQL. */
export class PgBus {
  private readonly options: PgBusOptions;
  private readonly listeners = new Set<(message: BusMessage) => void>();
  private client: pg.Client | null = null;
  private pid: number | null = null;
  private failures = 0;
  private connectedBefore = false;
  private closed = false;
  private retry: ReturnType<typeof setTimeout> | null = null;
  private ping: ReturnType<typeof setInterval> | null = null;
  private heardAt = 0;
  /** The end of the last connection lost (awaited by close). */
  private ending: Promise<void> = Promise.resolve();
  /** Connections opened (the first included), for tests and the log. */
  connections = 0;

  private constructor(options: PgBusOptions) {
    this.options = options;
  }

  /**
   * Start listening. Resolves once the first connection listens, or failed (it is then tried again
   * in the background: the instance works without the bus, only later).
   */
  static async start(options: PgBusOptions): Promise<PgBus> {
    const bus = new PgBus(options);
    await bus.connect();
    return bus;
  }

  get listening(): boolean {
    return this.client !== null;
  }

  subscribe(listener: (message: BusMessage) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    if (this.ping) clearInterval(this.ping);
    this.retry = null;
    this.ping = null;
    const client = this.client;
    this.client = null;
    this.listeners.clear();
    await this.end(client);
    await this.ending;
  }

  /** End a connection: one that does not end cleanly is gone anyway (said in the log). */
  private end(client: pg.Client | null): Promise<void> {
    if (!client) return Promise.resolve();
    return client.end().catch((error: unknown) => {
      this.options.log?.(
        'info',
        `a connection of the instances' bus did not end cleanly: ${describeError(error)}`,
      );
    });
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    const { pool } = this.options.store;
    const client = new pg.Client({
      ...(pool.options as pg.ClientConfig),
      types: REAPER_TYPES,
      keepAlive: true,
      // Named after the instance, so that an operator (or a test) tells the instances' buses apart.
      application_name: (
        this.options.applicationName ?? `clever-reaper bus ${this.options.instanceId}`
      ).slice(0, 63),
    });
    let gone = false;
    const drop = (error?: Error) => {
      if (gone) return;
      gone = true;
      if (this.client === client) this.dropped(error);
    };
    client.on('error', drop);
    client.on('end', () => drop());
    client.on('notification', (n) => {
      if (n.channel === BUS_CHANNEL && n.payload) this.received(n.processId, n.payload);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${BUS_CHANNEL}`);
    } catch (error) {
      gone = true;
      await this.end(client);
      this.options.log?.('warn', `the instances' bus cannot listen: ${describeError(error)}`);
      this.again();
      return;
    }
    if (this.closed || gone) {
      await this.end(client);
      if (!this.closed) this.again();
      return;
    }
    this.client = client;
    this.pid = (client as unknown as { processID: number | null }).processID;
    this.failures = 0;
    this.connections++;
    this.heardAt = Date.now();
    this.watch(client);
    const first = !this.connectedBefore;
    this.connectedBefore = true;
    if (!first) this.options.log?.('info', "the instances' bus listens again");
    this.emit({ kind: 'connected', first });
  }

  /** A query on a connection silent for `pingMs`: a connection gone without a word is noticed. */
  private watch(client: pg.Client): void {
    if (this.ping) clearInterval(this.ping);
    const every = this.options.pingMs ?? 10_000;
    this.ping = setInterval(
      () => {
        if (this.client !== client || Date.now() - this.heardAt < every) return;
        const timer = setTimeout(() => client.emit('error', new Error('no answer to a ping')), every);
        client.query('SELECT 1').then(
          () => {
            clearTimeout(timer);
            this.heardAt = Date.now();
          },
          (error: unknown) => {
            clearTimeout(timer);
            client.emit('error', error instanceof Error ? error : new Error(String(error)));
          },
        );
      },
      Math.max(50, Math.floor(every / 2)),
    );
  }

  private dropped(error?: Error): void {
    const client = this.client;
    this.client = null;
    this.pid = null;
    if (this.ping) clearInterval(this.ping);
    this.ping = null;
    // Awaited by close(); a connection lost ends on its own.
    this.ending = this.end(client);
    if (this.closed) return;
    this.options.log?.(
      'warn',
      `the instances' bus lost its connection${error ? ` (${describeError(error)})` : ''}: listening again`,
    );
    this.again();
  }

  private again(): void {
    if (this.closed || this.retry) return;
    const { first, max } = this.options.backoffMs ?? { first: 100, max: 5000 };
    const delay = Math.min(max, first * 2 ** this.failures) * (0.75 + Math.random() * 0.5);
    this.failures++;
    this.retry = setTimeout(() => {
      this.retry = null;
      this.connect().catch((error: unknown) => {
        this.options.log?.('error', `the instances' bus cannot listen again: ${describeError(error)}`);
      });
    }, delay);
  }

  private received(processId: number, payload: string): void {
    this.heardAt = Date.now();
    const own = processId === this.pid || this.options.store.backends.has(processId);
    let m: Record<string, unknown>;
    try {
      m = JSON.parse(payload) as Record<string, unknown>;
    } catch {
      return;
    }
    const text = (v: unknown) => (typeof v === 'string' ? v : null);
    const int = (v: unknown) => (typeof v === 'number' && Number.isSafeInteger(v) ? v : null);
    switch (m.k) {
      case 's': {
        // One record (the trigger of schema versions 3 and 4, one NOTIFY per row).
        const appId = text(m.a);
        const ownerId = text(m.o);
        if (appId !== null && ownerId !== null) this.emit({ kind: 'state', appId, ownerId, own });
        return;
      }
      case 'S': {
        // The records of one statement, of one owner (schema version 5 on).
        const ownerId = text(m.o);
        if (ownerId === null || !Array.isArray(m.a)) return;
        for (const a of m.a) {
          const appId = text(a);
          if (appId !== null) this.emit({ kind: 'state', appId, ownerId, own });
        }
        return;
      }
      case 'h': {
        const from = int(m.f);
        const to = int(m.t);
        if (from !== null && to !== null) this.emit({ kind: 'history', from, to, own });
        return;
      }
      case 'c': {
        const key = text(m.key);
        if (key !== null) this.emit({ kind: 'config', key, own });
        return;
      }
      case 'r': {
        const id = int(m.id);
        const ownerId = text(m.o);
        if (id !== null && ownerId !== null) this.emit({ kind: 'request', id, ownerId, own });
        return;
      }
      case 'p':
        this.emit({ kind: 'people', own });
        return;
      default:
        return; // a message of a newer version: ignored
    }
  }

  private emit(message: BusMessage): void {
    for (const listener of this.listeners) {
      try {
        listener(message);
      } catch (error) {
        this.options.log?.('error', `a listener of the bus failed: ${describeError(error)}`);
      }
    }
  }

  // ---- publish (on the store's pool) --------------------------------------------------------

  /** Keep the request for the owner's holder; the row's trigger tells it (a `request` message). */
  async publish(request: ForwardedRequest): Promise<void> {
    const { action } = request;
    await this.options.store.pool.query(
      `INSERT INTO wake_requests (app_id, owner_id, source, at, action, until_at, from_instance, by_name, by_via, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, ${DB_NOW})`,
      [
        request.appId,
        request.ownerId,
        request.source,
        request.at,
        action?.kind ?? null,
        action?.kind === 'keepAwake' ? action.until : null,
        this.options.instanceId,
        request.by?.name ?? null,
        request.by?.via ?? null,
      ],
    );
  }
}
