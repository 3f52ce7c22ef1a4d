/** The routes: validated, kept with what could not be read (written back untouched), hosts unique. */
import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { InputError, NotFoundError, parseInput } from '../../../shared/errors.ts';
import {
  type Route,
  type RouteCreate,
  type RouteUpdate,
  routeCreateSchema,
  routeUpdateSchema,
} from '../../../shared/routes.ts';
import { NOT_A_LIST, readRoutes, type UnreadRoute, unreadRoutesProblem } from '../config-read.ts';
import type { BookContext } from './book.ts';

export class RouteBook {
  private readonly ctx: BookContext;
  private routes: Route[];
  private unreadRoutes: UnreadRoute[];

  constructor(ctx: BookContext) {
    this.ctx = ctx;
    const { routes, unread } = readRoutes(ctx.backend.get('routes'));
    this.routes = routes;
    this.unreadRoutes = unread;
  }

  /** Take the stored value as it is now; whether anything changed. */
  adopt(value: unknown): boolean {
    const { routes, unread } = readRoutes(value);
    const changed = !isDeepStrictEqual([routes, unread], [this.routes, this.unreadRoutes]);
    this.routes = routes;
    this.unreadRoutes = unread;
    return changed;
  }

  get unreadCount(): number {
    return this.unreadRoutes.length;
  }

  problem(): string | null {
    return unreadRoutesProblem(this.unreadRoutes);
  }

  list(): readonly Route[] {
    return this.routes;
  }

  get(id: string): Route {
    const route = this.routes.find((r) => r.id === id);
    if (!route) throw new NotFoundError(`route ${id}`);
    return route;
  }

  create(input: RouteCreate): Route {
    const fields = parseInput(routeCreateSchema, input);
    const now = this.ctx.now();
    const route: Route = { id: `route_${randomUUID()}`, ...fields, createdAt: now, updatedAt: now };
    this.write([...this.routes, route]);
    return route;
  }

  update(id: string, input: RouteUpdate): Route {
    const current = this.get(id);
    const fields = parseInput(routeUpdateSchema, input);
    const route: Route = { ...current, ...fields, updatedAt: this.ctx.now() };
    this.write(this.routes.map((r) => (r.id === id ? route : r)));
    return route;
  }

  delete(id: string): void {
    const unread = this.unreadRoutes.find((u) => u.id === id);
    if (unread) {
      this.write(
        this.routes,
        this.unreadRoutes.filter((u) => u !== unread),
      );
      return;
    }
    this.get(id);
    this.write(this.routes.filter((r) => r.id !== id));
  }

  /** Disable every route of an app ("Disable the reaper"); returns the routes changed. */
  disableOf(appId: string): Route[] {
    const now = this.ctx.now();
    const changed: Route[] = [];
    const next = this.routes.map((r) => {
      if (r.appId !== appId || !r.enabled) return r;
      const updated = { ...r, enabled: false, updatedAt: now };
      changed.push(updated);
      return updated;
    });
    if (changed.length) this.write(next);
    return changed;
  }

  private write(routes: Route[], unread: UnreadRoute[] = this.unreadRoutes): void {
    const hostOwners = new Map<string, string>();
    for (const r of routes) {
      for (const host of r.hosts) {
        const other = hostOwners.get(host);
        if (other && other !== r.appId) {
          throw InputError.of('hosts', 'hostTaken', { value: host, other });
        }
        hostOwners.set(host, r.appId);
      }
    }
    // A stored value that was not even a list is kept whole only while nothing replaces it.
    const kept = unread.flatMap((u) => (u.reason === NOT_A_LIST ? [] : [u.raw]));
    this.ctx.backend.set('routes', [...routes, ...kept]);
    this.routes = routes;
    this.unreadRoutes = unread.filter((u) => u.reason !== NOT_A_LIST);
    this.ctx.confirmed();
    this.ctx.emit({ kind: 'routes' });
  }
}
