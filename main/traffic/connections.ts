/**
 * Open connections to the apps through the wake proxy, and what they mean for the engine: while a
 * connection to an Up app is open and not silent past its route's idle limit, the app is in use and
 * its last request moves on (see shared/connection-settings.ts).
 *
 * Nothing is done per byte: each connection is a client socket whose byte counters (read and
 * written) are compared at every beat (engine clock, every `beatMs`); a change is activity. The
 * beats run only while a connection is open.
 */
import type { Socket } from 'node:net';
import { type ConnectionUse, connectionUseOf } from '../../shared/connection-settings.ts';
import type { Route } from '../../shared/routes.ts';
import type { Engine } from '../engine/engine.ts';
import type { Clock } from '../engine/ports.ts';

/** Engine time between two looks at the open connections: well below the shortest grace period. */
export const CONNECTION_BEAT_MS = 5000;

interface Open {
  appId: string;
  socket: Socket;
  /** Ignored by the route's filters: open, but never traffic. */
  counts: boolean;
  bytes: number;
  activeAt: number;
}

/** An open connection, as `opened` hands it out. */
export type OpenConnection = object;

export interface AppConnections {
  /** Connections open now (WebSockets and other upgrades, requests and streams in flight). */
  open: number;
  /** Of those, the ones that keep the app awake (not ignored, not silent past the idle limit). */
  inUse: number;
}

export interface ConnectionsOptions {
  engine: Engine;
  routes: () => readonly Route[];
  clock: Clock;
  beatMs?: number;
  /** The engine's answer to a beat's request: recorded, or refused (the datastore refuses writes). */
  recorded: () => void;
  failed: (error: unknown) => void;
}

export class Connections {
  private readonly options: ConnectionsOptions;
  private readonly open = new Set<Open>();
  private timer: unknown = null;
  private stopped = false;

  constructor(options: ConnectionsOptions) {
    this.options = options;
  }

  /** A connection to `appId` opens on `socket`; give what this returns to `closed` when it closes. */
  opened(appId: string, socket: Socket, counts: boolean): OpenConnection {
    const entry: Open = {
      appId,
      socket,
      counts,
      bytes: socket.bytesRead + socket.bytesWritten,
      activeAt: this.options.clock.now(),
    };
    this.open.add(entry);
    if (this.timer === null && !this.stopped) this.arm();
    return entry;
  }

  /** The connection closed (once or more). */
  closed(connection: OpenConnection): void {
    this.open.delete(connection as Open);
  }

  /** Open connections per app (those of one app when `appId` is given). */
  of(appId: string): AppConnections {
    const now = this.options.clock.now();
    const use = connectionUseOf(this.options.routes(), appId);
    let open = 0;
    let inUse = 0;
    for (const c of this.open) {
      if (c.appId !== appId) continue;
      open++;
      if (this.inUse(c, use, now)) inUse++;
    }
    return { open, inUse };
  }

  /** Every app with an open connection. */
  all(): Map<string, AppConnections> {
    const apps = new Map<string, AppConnections>();
    for (const c of this.open) if (!apps.has(c.appId)) apps.set(c.appId, this.of(c.appId));
    return apps;
  }

  get size(): number {
    return this.open.size;
  }

  close(): void {
    this.stopped = true;
    if (this.timer !== null) this.options.clock.clearTimeout(this.timer as never);
    this.timer = null;
  }

  private inUse(c: Open, use: ConnectionUse, now: number): boolean {
    return c.counts && use.keepsAwake && now - c.activeAt < use.idleLimitMs;
  }

  private arm(): void {
    this.timer = this.options.clock.setTimeout(() => this.beat(), this.options.beatMs ?? CONNECTION_BEAT_MS);
  }

  /** Note the activity of every open connection; the apps with one in use had a request now. */
  beat(): void {
    this.timer = null;
    if (this.stopped) return;
    const { engine, clock } = this.options;
    const now = clock.now();
    const routes = this.options.routes();
    const uses = new Map<string, ConnectionUse>();
    const busy = new Set<string>();
    for (const c of this.open) {
      if (c.socket.destroyed) {
        this.open.delete(c);
        continue;
      }
      const bytes = c.socket.bytesRead + c.socket.bytesWritten;
      if (bytes !== c.bytes) {
        c.bytes = bytes;
        c.activeAt = now;
      }
      if (busy.has(c.appId)) continue;
      let use = uses.get(c.appId);
      if (!use) {
        use = connectionUseOf(routes, c.appId);
        uses.set(c.appId, use);
      }
      if (this.inUse(c, use, now)) busy.add(c.appId);
    }
    for (const appId of busy) {
      // Only an Up app: a connection never wakes an app, nor holds back one going to sleep.
      if (engine.get(appId)?.state !== 'Up') continue;
      engine.request(appId, 'wake-proxy', now).then(this.options.recorded, this.options.failed);
    }
    if (this.open.size > 0) this.arm();
  }
}
