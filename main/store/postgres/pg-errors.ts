/**
 * PostgreSQL's failures said so that an operator knows what to do: a timeout names the database
 * (host, port, database) and what was waited for; a refusal for lack of connection slots says what
 * to change. The pool made here (`explainedPool`) says them so wherever a query fails, at start and
 * at run time; every other error goes on untouched. Each of these is an UnavailableError (the API
 * answers 503, never 500): the database is away, stalled or full, and the same call works later.
 *
 * Waiting for a connection of the pool queues, at most `queueMax` waiters (default 20 per
 * connection); past that a query fails at once with a clear UnavailableError rather than wait.
 */
import pg from 'pg';
import { UnavailableError } from '../../../shared/api-errors.ts';

/** How long the database is waited for (PostgresStoreOptions). */
export interface PgTimeouts {
  /** A new connection, up to logged in; also the wait for a free connection of the pool. */
  connectMs: number;
  /** A statement (PostgreSQL's statement_timeout); the client gives up up to 5 s later (a stalled server). */
  statementMs: number;
}

export const DEFAULT_PG_TIMEOUTS: PgTimeouts = { connectMs: 10_000, statementMs: 30_000 };
/** What the client waits beyond statement_timeout before it gives up on an answer (at most). */
const READ_GRACE_MS = 5000;
const readTimeout = (t: PgTimeouts) => t.statementMs + Math.min(READ_GRACE_MS, t.statementMs);
/** The pool's size when none is given. */
export const DEFAULT_POOL_SIZE = 10;

export interface PgContext {
  /** host:port/database, no credentials. */
  where: string;
  timeouts: PgTimeouts;
  poolSize: number;
  /** How many may wait for a connection of the pool at once (default 20 per connection). */
  queueMax?: number;
}

/** Waiters for a connection of the pool, per connection, when no bound is given. */
export const QUEUE_PER_CONNECTION = 20;

/** host:port/database of a connection URL, without its credentials. */
export function databasePlace(url: string): string {
  if (!URL.canParse(url)) return 'the database';
  const u = new URL(url);
  const host = u.hostname || u.searchParams.get('host') || 'localhost';
  return `${host}:${u.port || '5432'}${u.pathname && u.pathname !== '/' ? u.pathname : ''}`;
}

const s = (ms: number) => `${ms / 1000} s`;

/** The PostgreSQL failure said for an operator, or the error itself when it is none of these. */
export function explainPgError(error: unknown, context: PgContext): unknown {
  if (!(error instanceof Error) || (error as { explained?: boolean }).explained) return error;
  const code = (error as { code?: string }).code;
  const { where, timeouts, poolSize } = context;
  const m = error.message;
  let text: string | null = null;
  if (m === 'timeout expired' || m === 'Connection terminated due to connection timeout')
    text = `PostgreSQL at ${where} did not answer a new connection within ${s(timeouts.connectMs)} (waited to connect and log in): is the database up and reachable?`;
  else if (m === 'timeout exceeded when trying to connect')
    text = `no free connection to PostgreSQL at ${where} within ${s(timeouts.connectMs)}: all ${poolSize} of this instance's pool are busy (--pool-size, REAPER_POOL_SIZE) or the database does not answer`;
  else if (m === 'Query read timeout')
    text = `PostgreSQL at ${where} did not answer a statement within ${s(readTimeout(timeouts))} (waited for its result): the database is stalled or unreachable`;
  else if (code === '57014' && /statement timeout/.test(m))
    text = `PostgreSQL at ${where} cancelled a statement that ran past ${s(timeouts.statementMs)} (statement_timeout)`;
  else if (code === '53300' || /remaining connection slots are reserved|too many clients/i.test(m))
    text = `PostgreSQL at ${where} refused a connection: no connection slot left (${m.trim()}). Each instance opens up to ${poolSize + 1} connections (its pool, --pool-size / REAPER_POOL_SIZE, now ${poolSize}, and one for the bus): raise max_connections on the database, lower the pool size, or run fewer instances`;
  else if (
    code === '57P03' ||
    code === '57P01' ||
    code === 'ECONNREFUSED' ||
    code === 'ECONNRESET' ||
    /Connection terminated|the database system is (starting up|shutting down|in recovery mode)/i.test(m)
  )
    text = `PostgreSQL at ${where} cannot be used now (${m.trim() || code}): is the database up and reachable?`;
  if (text === null) return error;
  const explained = new UnavailableError(text);
  explained.cause = error;
  Object.assign(explained, { code, explained: true });
  return explained;
}

type Callback = (error: Error | null, ...rest: unknown[]) => void;

/** Wrap the callback among `args` (the last function), or the promise `run` gives back. */
function explaining(args: unknown[], context: PgContext, run: (args: unknown[]) => unknown): unknown {
  const last = args.length - 1;
  if (last >= 0 && typeof args[last] === 'function') {
    const callback = args[last] as Callback;
    const wrapped: Callback = (error, ...rest) =>
      callback(error ? (explainPgError(error, context) as Error) : error, ...rest);
    return run([...args.slice(0, last), wrapped]);
  }
  const result = run(args);
  if (result instanceof Promise)
    return result.catch((error: unknown) => {
      throw explainPgError(error, context);
    });
  return result;
}

/** A pool whose connections and queries fail with explained errors, timeouts set from `context`. */
export function explainedPool(config: pg.PoolConfig, context: PgContext): pg.Pool {
  const clientQuery = pg.Client.prototype.query as (...args: unknown[]) => unknown;
  const clientConnect = pg.Client.prototype.connect as (...args: unknown[]) => unknown;
  class ExplainedClient extends pg.Client {}
  Object.assign(ExplainedClient.prototype, {
    query(this: pg.Client, ...args: unknown[]) {
      return explaining(args, context, (a) => clientQuery.apply(this, a));
    },
    connect(this: pg.Client, ...args: unknown[]) {
      return explaining(args, context, (a) => clientConnect.apply(this, a));
    },
  });
  const poolConnect = pg.Pool.prototype.connect as (...args: unknown[]) => unknown;
  const pool = new pg.Pool({
    ...config,
    max: context.poolSize,
    Client: ExplainedClient,
    connectionTimeoutMillis: context.timeouts.connectMs,
    statement_timeout: context.timeouts.statementMs,
    query_timeout: readTimeout(context.timeouts),
  });
  const queueMax = context.queueMax ?? context.poolSize * QUEUE_PER_CONNECTION;
  Object.assign(pool, {
    connect(this: pg.Pool, ...args: unknown[]) {
      if (this.waitingCount >= queueMax) {
        const full = queueFull(context, queueMax);
        const last = args[args.length - 1];
        if (typeof last === 'function') {
          process.nextTick(() => (last as Callback)(full));
          return undefined;
        }
        return Promise.reject(full);
      }
      return explaining(args, context, (a) => poolConnect.apply(this, a));
    },
  });
  return pool;
}

/** The pool's queue is full: said at once, with what to change. */
function queueFull(context: PgContext, queueMax: number): Error {
  const error = new UnavailableError(
    `PostgreSQL at ${context.where}: ${queueMax} queries already wait for a connection of this instance's pool (all ${context.poolSize} busy): try again shortly, or raise the pool size (--pool-size, REAPER_POOL_SIZE) if the database has connections to spare`,
  );
  Object.assign(error, { code: 'POOL_QUEUE_FULL', explained: true });
  return error;
}
