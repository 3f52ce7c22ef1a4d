/**
 * The snapshot as the dashboard asks for it over HTTP (`GET /api/snapshot?form=by-app`): the same
 * data, each route carried by its app instead of in a list of its own.
 *
 * Why: an app's routes repeat its id and its owner's, and the app lists its routes' ids. In the flat
 * form the two copies of each id are hundreds of kilobytes apart (the apps, then the routes), out of
 * gzip's 32 KB window, so each is paid for twice on the wire; side by side, the second costs a few
 * bytes. For 1,000 apps with a route each: 111 KB gzipped flat, about 65 KB by app (bench/dashboard.ts).
 * Plain browsers over http:// to a remote server offer gzip only (brotli needs https or loopback).
 *
 * Lossless: `snapshotFromForm(snapshotByApp(s))` is `s`, the routes' order included. Pure (no node:).
 */
import type { AppView, Snapshot } from './api.ts';
import { HTTP_ROUTES } from './api-http.ts';
import type { Route } from './routes.ts';

/** The query that asks for it. */
export const SNAPSHOT_FORM_PARAM = 'form';
export const SNAPSHOT_BY_APP = 'by-app';
/** The snapshot's path in this form (the route table's path and the query). */
export const SNAPSHOT_BY_APP_PATH = `${HTTP_ROUTES.snapshot.path}?${SNAPSHOT_FORM_PARAM}=${SNAPSHOT_BY_APP}`;

/** A route as its app carries it: without the app's id, with its place in the flat list. */
export type CarriedRoute = Omit<Route, 'appId'> & { at: number };

export interface SnapshotByApp extends Omit<Snapshot, 'apps' | 'routes'> {
  form: typeof SNAPSHOT_BY_APP;
  apps: (AppView & { routes?: CarriedRoute[] })[];
  /** Routes of apps the snapshot does not list (each with its place in the flat list). */
  routes: (Route & { at: number })[];
}

export function snapshotByApp(snapshot: Snapshot): SnapshotByApp {
  const carried = new Map<string, CarriedRoute[]>();
  const listed = new Set(snapshot.apps.map((a) => a.appId));
  const others: (Route & { at: number })[] = [];
  snapshot.routes.forEach((route, at) => {
    if (!listed.has(route.appId)) {
      others.push({ ...route, at });
      return;
    }
    const { appId, ...rest } = route;
    const list = carried.get(appId);
    if (list) list.push({ ...rest, at });
    else carried.set(appId, [{ ...rest, at }]);
  });
  return {
    ...snapshot,
    form: SNAPSHOT_BY_APP,
    apps: snapshot.apps.map((app) => {
      const routes = carried.get(app.appId);
      return routes ? { ...app, routes } : app;
    }),
    routes: others,
  };
}

export function isSnapshotByApp(value: unknown): value is SnapshotByApp {
  return (
    typeof value === 'object' && value !== null && (value as { form?: unknown }).form === SNAPSHOT_BY_APP
  );
}

/** The flat snapshot again. */
export function snapshotFromForm(form: SnapshotByApp): Snapshot {
  const routes: Route[] = [];
  let count = 0;
  const put = (at: number, route: Route) => {
    routes[at] = route;
    count++;
  };
  const apps = form.apps.map(({ routes: carried, ...app }) => {
    for (const { at, ...route } of carried ?? []) put(at, { ...route, appId: app.appId });
    return app;
  });
  for (const { at, ...route } of form.routes) put(at, route);
  if (routes.length !== count || routes.includes(undefined as unknown as Route)) {
    throw new Error('the snapshot by app is damaged: its routes do not fill their places');
  }
  const { form: _form, apps: _apps, routes: _routes, ...rest } = form;
  return { ...rest, apps, routes };
}
