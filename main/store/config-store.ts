/**
 * Routes and settings: validated, kept in a key-value file (electron-store on the desktop, conf in
 * Node, a Map in tests), and announced to listeners (the engine) when they change. Every change is
 * validated in full before anything is written: nothing is half-applied.
 */
import { randomUUID } from 'node:crypto';
import { InputError, NotFoundError, parseInput } from '../../shared/errors.ts';
import {
  type Route,
  type RouteCreate,
  type RouteUpdate,
  routeCreateSchema,
  routeUpdateSchema,
} from '../../shared/routes.ts';
import {
  DEFAULT_SETTINGS,
  type Settings,
  type SettingsUpdate,
  settingsProblems,
  settingsUpdateSchema,
} from '../../shared/settings.ts';
import type { EngineConfig } from '../engine/ports.ts';

/** The few calls the store needs from electron-store / conf. */
export interface KeyValueBackend {
  get(key: string): unknown;
  set(key: string, value: unknown): void;
}

export class MemoryBackend implements KeyValueBackend {
  private data = new Map<string, unknown>();
  get(key: string): unknown {
    return structuredClone(this.data.get(key));
  }
  set(key: string, value: unknown): void {
    this.data.set(key, structuredClone(value));
  }
}

export type ConfigChange = { kind: 'routes' } | { kind: 'settings' };

export class ConfigStore implements EngineConfig {
  private readonly backend: KeyValueBackend;
  private readonly now: () => number;
  private cachedRoutes: Route[];
  private cachedSettings: Settings;
  private listeners = new Set<(change: ConfigChange) => void>();

  constructor(backend: KeyValueBackend, now: () => number = Date.now) {
    this.backend = backend;
    this.now = now;
    this.cachedRoutes = readRoutes(backend.get('routes'));
    this.cachedSettings = { ...DEFAULT_SETTINGS, ...readSettings(backend.get('settings')) };
  }

  routes(): readonly Route[] {
    return this.cachedRoutes;
  }

  route(id: string): Route {
    const route = this.cachedRoutes.find((r) => r.id === id);
    if (!route) throw new NotFoundError(`route ${id}`);
    return route;
  }

  settings(): Settings {
    return this.cachedSettings;
  }

  onChange(listener: (change: ConfigChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  createRoute(input: RouteCreate): Route {
    const fields = parseInput(routeCreateSchema, input);
    const now = this.now();
    const route: Route = { id: `route_${randomUUID()}`, ...fields, createdAt: now, updatedAt: now };
    this.writeRoutes([...this.cachedRoutes, route]);
    return route;
  }

  updateRoute(id: string, input: RouteUpdate): Route {
    const current = this.route(id);
    const fields = parseInput(routeUpdateSchema, input);
    const route: Route = { ...current, ...fields, updatedAt: this.now() };
    this.writeRoutes(this.cachedRoutes.map((r) => (r.id === id ? route : r)));
    return route;
  }

  deleteRoute(id: string): void {
    this.route(id);
    this.writeRoutes(this.cachedRoutes.filter((r) => r.id !== id));
  }

  /** Disable every route of an app ("Disable the reaper"); returns the routes changed. */
  disableRoutesOf(appId: string): Route[] {
    const now = this.now();
    const changed: Route[] = [];
    const next = this.cachedRoutes.map((r) => {
      if (r.appId !== appId || !r.enabled) return r;
      const updated = { ...r, enabled: false, updatedAt: now };
      changed.push(updated);
      return updated;
    });
    if (changed.length) this.writeRoutes(next);
    return changed;
  }

  updateSettings(input: SettingsUpdate): Settings {
    const patch = parseInput(settingsUpdateSchema, input);
    const next = { ...this.cachedSettings, ...patch };
    const problems = settingsProblems(next);
    if (problems.length) {
      throw new InputError(
        problems.map((p) => ({ field: p.split(':')[0] ?? '', message: p.slice(p.indexOf(':') + 2) })),
      );
    }
    this.backend.set('settings', next);
    this.cachedSettings = next;
    this.emit({ kind: 'settings' });
    return next;
  }

  private writeRoutes(routes: Route[]): void {
    const hostOwners = new Map<string, string>();
    for (const r of routes) {
      for (const host of r.hosts) {
        const other = hostOwners.get(host);
        if (other && other !== r.appId) {
          throw new InputError([
            { field: 'hosts', message: `${host} already routes to another app (${other})` },
          ]);
        }
        hostOwners.set(host, r.appId);
      }
    }
    this.backend.set('routes', routes);
    this.cachedRoutes = routes;
    this.emit({ kind: 'routes' });
  }

  private emit(change: ConfigChange): void {
    for (const l of this.listeners) l(change);
  }
}

/** Routes as stored; an entry that does not validate any more is dropped rather than trusted. */
function readRoutes(value: unknown): Route[] {
  if (!Array.isArray(value)) return [];
  const out: Route[] = [];
  for (const item of value) {
    if (!item || typeof item !== 'object') continue;
    const { id, createdAt, updatedAt, ...fields } = item as Record<string, unknown>;
    const parsed = routeCreateSchema.safeParse(fields);
    if (parsed.success && typeof id === 'string') {
      out.push({
        id,
        ...parsed.data,
        createdAt: typeof createdAt === 'number' ? createdAt : 0,
        updatedAt: typeof updatedAt === 'number' ? updatedAt : 0,
      });
    }
  }
  return out;
}

function readSettings(value: unknown): Partial<Settings> {
  if (!value || typeof value !== 'object') return {};
  const out: Partial<Settings> = {};
  for (const [key, v] of Object.entries(value)) {
    const parsed = settingsUpdateSchema.safeParse({ [key]: v });
    if (parsed.success) Object.assign(out, parsed.data);
  }
  return out;
}
