/**
 * The dashboard in Chromium (issue 9, item 4): the real built dashboard (out/renderer, `vite build`)
 * served by the real headless server, on an account against the simulator in a process of its own
 * (bench/fixtures/fleet-cloud.ts), in the system's Chromium driven by Playwright.
 *
 *  a) First render: from navigation start (performance.now() = 0 in the page) to the apps table
 *     showing its rows: the toolbar says "N apps" and a row is in the DOM (a MutationObserver set up
 *     before the page's scripts run), and to the frame after that (rAF, then a message: painted).
 *     Two ways: a fresh browser context each time (a new renderer process, nothing cached: a first
 *     visit), and reloads in an open tab with the HTTP cache off (the process and V8's code cache
 *     warm, as when the desktop window reloads or an operator comes back to the tab). One warm-up
 *     load not counted. Baseline: the same with 10 apps.
 *  b) Change to screen: one app, searched for so that its row is rendered, stopped and started from
 *     the console (`toggle NAME` on the fixture's stdin) again and again. From the server's event for
 *     the app's new state, as a client of /api/events in this process receives it (the engine's
 *     change, on the wire), to the row's state badge changing in the DOM (a MutationObserver) and to
 *     the frame after. The page's clock and this process's are both performance.timeOrigin +
 *     performance.now(); their offset is measured (the round trip with the least delay) and taken
 *     out. Also reported: from the console action to the server's event (the reaper hearing of it).
 *     With no other change, and while `churn` apps a second change state (the churn goes over every
 *     app in turn, the watched one too, every ~9 s at 100/s: a toggle whose first change cannot be
 *     told from the churn's is left out and counted as `unpaired`).
 *  c) Frame times: requestAnimationFrame deltas and long tasks (PerformanceObserver 'longtask') over
 *     `seconds`, the table showing every app sorted by name, while `churn` apps a second change state
 *     (the fixture stops and starts them from the console); baseline: the same with no churn.
 *
 *   npx node bench/dashboard.ts [--apps 1000] [--runs 7] [--changes 24] [--seconds 10] [--churn 100]
 *                               [--only first-render]   (a) alone, with 1,000 apps and no baseline)
 *                               [--before DIR [--rounds 2]]   (a) alone, DIR's tree and this one
 *                                                              alternated in one run)
 *                               [--browser-ui]   (Chromium's omnibox popup loaded in each new window,
 *                                                 as it is by default: see NO_BROWSER_UI)
 *
 * The first render also reports the bytes on the wire (`wire`): the snapshot and the scripts run
 * before the rows showed, as received (brotli: Chromium offers it to loopback) and gzipped (what
 * Chromium offers a server over plain http:// elsewhere).
 *
 * Goals of the issue: first render < 500 ms, change on screen < 250 ms, no frame over 50 ms.
 * Nothing here asserts: the figures are printed (JSON lines) and returned.
 */
import { execFileSync } from 'node:child_process';
import { get as httpGet } from 'node:http';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { type Browser, chromium, type Page } from '@playwright/test';
import { MARK_BUNDLE_RAN, MARK_HYDRATED, MARK_SNAPSHOT_DECODED } from '../renderer/lib/first-screen-marks.ts';
import type { AppView, ReaperEvent } from '../shared/api.ts';
import { RENDERING_ATTRIBUTE, VIEW_HEIGHT_COOKIE, ZONE_COOKIE } from '../shared/first-screen.ts';
import { SESSION_COOKIE } from '../shared/people.ts';
import { SseParser } from '../shared/sse.ts';
import { api, type Fleet, NODE, ROOT, withFleet } from './fleet.ts';
import { round } from './stats.ts';

const VIEWPORT = { width: 1280, height: 800 };
/**
 * Chromium's own omnibox popup, a WebUI page (chrome://omnibox-popup.top-chrome) that this Chromium
 * (156) loads in a renderer of its own for every new window, so for every new browser context, at
 * the same time as the dashboard: about a CPU-second of it on a 2-core machine (from a trace), which
 * a visitor's browser, open already, has long done. Off, so that a new context measures the page.
 */
export const NO_BROWSER_UI =
  '--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup,WebUIOmniboxFullPopup,PreloadTopChromeWebUI';
/** The same flags as the e2e tests (playwright.config.ts). */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  NO_BROWSER_UI,
];

export interface DashboardResult {
  name: string;
  unit: string;
  median: number;
  p95?: number;
  p99?: number;
  worst: number;
  samples: number;
  [extra: string]: unknown;
}

/** Epoch milliseconds, sub-millisecond: the same expression in the page. */
const now = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function quantiles(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
  return {
    median: round(at(0.5), 1),
    p95: round(at(0.95), 1),
    p99: round(at(0.99), 1),
    worst: round(sorted.at(-1) ?? Number.NaN, 1),
    samples: sorted.length,
  };
}

/**
 * What the page records, installed before its own scripts (plain JS: it runs in the page).
 * window.__bench.firstRows / firstPainted: the first render (ms since navigation start);
 * watch (an app id): each change of its row's state badge, in epoch ms; startFrames/stopFrames.
 */
function pageScript(apps: number): string {
  return `(() => {
  const b = (window.__bench = {
    firstRows: null, firstPainted: null, watch: null, lastState: null, changes: [],
    frames: [], longtasks: [], recording: false,
  });
  const afterPaint = (done) =>
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => done(performance.now());
      channel.port2.postMessage(0);
    });
  const observer = new MutationObserver(() => {
    if (b.firstRows === null) {
      const count = document.querySelector('.toolbar .count');
      // "1000 apps" before issue 26, "1,000 apps" (Intl) since: the digits and the word.
      const said = count && count.textContent.replace(/[\\s,.\\u00a0\\u202f]/g, '');
      if (said === '${apps}apps' && document.querySelector('tr[data-app]')) {
        b.firstRows = performance.now();
        afterPaint((t) => { b.firstPainted = t; });
      }
    }
    if (b.watch) {
      const badge = document.querySelector('tr[data-app-id="' + b.watch + '"] .badge');
      const state = badge && badge.getAttribute('data-state');
      if (state && state !== b.lastState) {
        b.lastState = state;
        const change = { state, dom: performance.timeOrigin + performance.now(), painted: null };
        b.changes.push(change);
        afterPaint((t) => { change.painted = performance.timeOrigin + t; });
      }
    }
  });
  observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  b.stopObserving = () => observer.disconnect();
  b.rows = () => document.querySelectorAll('tr[data-app]').length;
  new PerformanceObserver((list) => {
    if (b.recording) for (const e of list.getEntries()) b.longtasks.push(e.duration);
  }).observe({ type: 'longtask' });
  b.startFrames = () => {
    b.frames = [];
    b.longtasks = [];
    b.recording = true;
    let last = null;
    const loop = (t) => {
      if (!b.recording) return;
      if (last !== null) b.frames.push(t - last);
      last = t;
      requestAnimationFrame(loop);
    };
    requestAnimationFrame(loop);
  };
  b.stopFrames = () => { b.recording = false; };
})();`;
}

/**
 * window.__bench as the predicates of waitForFunction see it: they are functions (the page's CSP
 * forbids eval, so string predicates cannot run there), serialised, so each one reads it itself.
 */
interface InPage {
  __bench: { firstPainted: number | null; changes: { painted: number | null }[]; rows(): number };
}

/** A client of the server's event stream in this process: each event with when it arrived. */
async function listen(
  fleet: Fleet,
  onEvent: (event: ReaperEvent, at: number) => void,
): Promise<{ close(): void }> {
  const controller = new AbortController();
  const res = await fetch(`${fleet.origin}/api/events`, {
    headers: { authorization: `Bearer ${fleet.token}`, accept: 'text/event-stream' },
    signal: controller.signal,
  });
  if (!res.ok || !res.body) throw new Error(`event stream: HTTP ${res.status}`);
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  const parser = new SseParser();
  (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      const at = now();
      for (const m of parser.push(value)) onEvent(JSON.parse(m.data) as ReaperEvent, at);
    }
  })().catch((error: unknown) => {
    // close() aborts the stream: only a failure before that is one.
    if (!controller.signal.aborted) console.error(`event stream of ${fleet.origin} failed:`, error);
  });
  return { close: () => controller.abort() };
}

/** The page's clock minus this process's (ms), from the round trip with the least delay. */
async function clockOffset(page: Page): Promise<{ offset: number; roundTrip: number }> {
  let best = { offset: 0, roundTrip: Number.POSITIVE_INFINITY };
  for (let i = 0; i < 15; i++) {
    const before = now();
    const inPage = await page.evaluate<number>('performance.timeOrigin + performance.now()');
    const after = now();
    if (after - before < best.roundTrip) {
      best = { offset: inPage - (before + after) / 2, roundTrip: after - before };
    }
  }
  return { offset: round(best.offset, 2), roundTrip: round(best.roundTrip, 2) };
}

/**
 * A session cookie for the fleet's server (the token exchanged once, as the token screen does): a
 * signed-in browser's new context carries it, and its GET / comes with the rows rendered by the
 * server (issue 26).
 */
export async function sessionCookie(fleet: Fleet): Promise<string> {
  const res = await fetch(`${fleet.origin}/api/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token: fleet.token }),
  });
  if (!res.ok) throw new Error(`sign-in: HTTP ${res.status}`);
  const value = /^[^=]+=([^;]*)/.exec(res.headers.get('set-cookie') ?? '')?.[1];
  if (!value) throw new Error('sign-in: no session cookie');
  return value;
}

/**
 * A fresh context and page on the dashboard, once its table has rendered. With `session`: a browser
 * signed in before (its session cookie, and the zone and view-height cookies its visit before left:
 * `viewHeight`, the window's after a first visit), at the page's address without a token.
 */
export async function openDashboard(
  browser: Browser,
  fleet: Fleet,
  session: string | null = null,
  viewHeight = VIEWPORT.height,
) {
  const context = await browser.newContext({ viewport: VIEWPORT });
  if (session) {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
    await context.addCookies([
      { name: SESSION_COOKIE, value: session, url: fleet.origin },
      { name: ZONE_COOKIE, value: encodeURIComponent(zone), url: fleet.origin },
      { name: VIEW_HEIGHT_COOKIE, value: String(viewHeight), url: fleet.origin },
    ]);
  }
  const page = await context.newPage();
  await page.addInitScript({ content: pageScript(fleet.apps) });
  await page.goto(session ? `${fleet.origin}/` : fleet.dashboardUrl);
  await page.waitForFunction(
    () => (globalThis as unknown as InPage).__bench.firstPainted !== null,
    undefined,
    { timeout: 60_000 },
  );
  return { context, page };
}

interface Load {
  rows: number;
  painted: number;
  /** The browser's first-contentful-paint (presented on screen): the rows, when the server rendered them. */
  contentfulPaint: number | null;
  domContentLoaded: number;
  snapshotEnd: number | null;
  /** Bytes of the snapshot's body on the wire (as the browser asked for it: brotli on loopback). */
  snapshotBytes: number | null;
  /** The snapshot's URL, as the page asked for it. */
  snapshotUrl: string | null;
  /** Bytes on the wire of the scripts (and of the stylesheet) received before the rows showed. */
  scriptBytes: number;
  styleBytes: number;
  /** The page's own paths of those scripts. */
  scripts: string[];
  /** The page's marks (renderer/api/early.ts), null in a tree without them: the snapshot decoded, the bundle run. */
  snapshotDecoded: number | null;
  bundleRan: number | null;
  /** The server-rendered first screen hydrated (its controls answer from then on); null otherwise. */
  hydrated: number | null;
}

/** What the page measured of its load, once its table has rendered. */
async function loadOf(page: Page): Promise<Load> {
  await page.waitForFunction(
    () =>
      (globalThis as unknown as InPage).__bench.firstPainted !== null &&
      performance.getEntriesByName('first-contentful-paint').length > 0,
    undefined,
    { timeout: 60_000 },
  );
  return page.evaluate<Load>(`(() => {
    const nav = performance.getEntriesByType('navigation')[0];
    const snap = performance.getEntriesByType('resource').find((e) => e.name.includes('/api/snapshot'));
    const before = performance.getEntriesByType('resource').filter((e) => e.responseEnd <= window.__bench.firstRows);
    const sum = (list) => list.reduce((a, e) => a + e.encodedBodySize, 0);
    const js = before.filter((e) => /.js$/.test(new URL(e.name).pathname));
    const mark = (name) => { const m = performance.getEntriesByName(name, 'mark')[0]; return m ? m.startTime : null; };
    return {
      snapshotDecoded: mark(${JSON.stringify(MARK_SNAPSHOT_DECODED)}),
      bundleRan: mark(${JSON.stringify(MARK_BUNDLE_RAN)}),
      hydrated: mark(${JSON.stringify(MARK_HYDRATED)}),
      rows: window.__bench.firstRows,
      painted: window.__bench.firstPainted,
      contentfulPaint: (performance.getEntriesByName('first-contentful-paint')[0] || {}).startTime ?? null,
      domContentLoaded: nav ? nav.domContentLoadedEventEnd : null,
      snapshotEnd: snap ? snap.responseEnd : null,
      snapshotBytes: snap ? snap.encodedBodySize : null,
      snapshotUrl: snap ? new URL(snap.name).pathname + new URL(snap.name).search : null,
      scriptBytes: sum(js),
      styleBytes: sum(before.filter((e) => /.css$/.test(new URL(e.name).pathname))),
      scripts: js.map((e) => new URL(e.name).pathname),
    };
  })()`);
}

/**
 * a) First render, `runs` loads after a warm-up one. `cold`: each in a fresh browser context (a new
 * renderer process, nothing cached: a first visit). `reload`: the page reloaded in an open tab with
 * the HTTP cache disabled (the process and V8's code cache warm, every byte fetched again).
 * `signed-in`: each in a fresh context of a browser signed in before (its session cookie): the rows
 * come in the page's HTML (issue 26); also reported, when the page is interactive (hydrated).
 */
export async function firstRender(
  browser: Browser,
  fleet: Fleet,
  runs: number,
  mode: 'cold' | 'reload' | 'signed-in' = 'cold',
): Promise<DashboardResult> {
  const loads: Load[] = [];
  if (mode !== 'reload') {
    const session = mode === 'signed-in' ? await sessionCookie(fleet) : null;
    // What the visit before left (the warm-up's for the first measured): the height the rows fill.
    let viewHeight = VIEWPORT.height;
    for (let i = 0; i <= runs; i++) {
      const { context, page } = await openDashboard(browser, fleet, session, viewHeight);
      if (session) {
        // Hydrated, when the server rendered the page; else (a tree before issue 26's first screen,
        // with --before) the rows painted by the client.
        await page.waitForFunction(
          ([mark, attribute]) => {
            const page = globalThis as unknown as InPage & {
              document: {
                documentElement: { hasAttribute(name: string): boolean };
                getElementById(id: string): unknown;
              };
            };
            // The page names its first screen's data (a tree before that: its data block's id).
            const rendered =
              page.document.documentElement.hasAttribute(attribute) ||
              page.document.getElementById('reaper-first-screen');
            return rendered
              ? performance.getEntriesByName(mark).length > 0
              : page.__bench.firstPainted !== null;
          },
          [MARK_HYDRATED, RENDERING_ATTRIBUTE] as const,
          { timeout: 60_000 },
        );
      }
      const load = await loadOf(page);
      if (session) {
        const left = (await context.cookies()).find((c) => c.name === VIEW_HEIGHT_COOKIE)?.value;
        if (left) viewHeight = Number(left);
      }
      await context.close();
      if (i > 0) loads.push(load);
    }
    if (session)
      console.log(
        `signed in: the server rendered the rows filling ${viewHeight} px (the visit before's cookie)`,
      );
  } else {
    const { context, page } = await openDashboard(browser, fleet);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    for (let i = 0; i <= runs; i++) {
      await page.reload();
      const load = await loadOf(page);
      if (i > 0) loads.push(load);
    }
    await context.close();
  }
  /** One measure's quantiles over the loads, a load without it left out. */
  const over = (measure: (load: Load) => number | null) =>
    quantiles(loads.map(measure).filter((value): value is number => value !== null));
  const rows = over((l) => l.rows);
  const painted = over((l) => l.painted);
  const hydrated = over((l) => l.hydrated);
  return {
    name: `dashboard first render, ${fleet.apps} apps, ${
      {
        cold: 'new browser context',
        'signed-in': 'new browser context, signed in (rows rendered by the server)',
        reload: 'reload in an open tab, HTTP cache off',
      }[mode]
    }`,
    unit: 'ms since navigation start',
    median: rows.median,
    worst: rows.worst,
    samples: rows.samples,
    paintedMedian: painted.median,
    paintedWorst: painted.worst,
    contentfulPaintMedian: over((l) => l.contentfulPaint).median,
    domContentLoadedMedian: over((l) => l.domContentLoaded).median,
    snapshotReceivedMedian: over((l) => l.snapshotEnd).median,
    // NaN (null in the JSON) in a tree without the page's marks.
    snapshotDecodedMedian: over((l) => l.snapshotDecoded).median,
    bundleRanMedian: over((l) => l.bundleRan).median,
    // When the page answers a click (hydrated): NaN (null) but in signed-in mode.
    hydratedMedian: hydrated.median,
    hydratedWorst: hydrated.worst,
    runs: loads.map((l) => round(l.rows, 1)),
    ...(mode === 'cold' ? { wire: await wireBytes(fleet, loads[0]!) } : {}),
  };
}

/** Bytes of one answer's body on the wire, as node:http receives it (no decoding), with this Accept-Encoding. */
function bodyBytes(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpGet(url, { headers }, (res) => {
      let n = 0;
      res.on('data', (chunk: Buffer) => {
        n += chunk.length;
      });
      res.on('end', () =>
        res.statusCode === 200 ? resolve(n) : reject(new Error(`${url}: HTTP ${res.statusCode}`)),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

/**
 * What a load costs on the wire: as the page received it (Chromium offers brotli to loopback), and
 * as a browser far away over plain http:// receives it (Chromium offers gzip, deflate only there)
 * and without compression, for the snapshot and for the scripts the page ran before its rows showed.
 */
async function wireBytes(fleet: Fleet, load: Load) {
  const auth = { authorization: `Bearer ${fleet.token}` };
  const snapshotUrl = `${fleet.origin}${load.snapshotUrl ?? '/api/snapshot'}`;
  const scripts = async (encoding: string) => {
    let total = 0;
    for (const path of load.scripts)
      total += await bodyBytes(`${fleet.origin}${path}`, { 'accept-encoding': encoding });
    return total;
  };
  return {
    snapshotAsReceived: load.snapshotBytes,
    snapshotGzip: await bodyBytes(snapshotUrl, { ...auth, 'accept-encoding': 'gzip, deflate' }),
    snapshotIdentity: await bodyBytes(snapshotUrl, { ...auth, 'accept-encoding': 'identity' }),
    scriptsAsReceived: load.scriptBytes,
    scriptsGzip: await scripts('gzip, deflate'),
    scriptsIdentity: await scripts('identity'),
    scriptCount: load.scripts.length,
    styleAsReceived: load.styleBytes,
  };
}

/** An app the fixture can stop and start (not moderated, deployed, not failing): index 7 is one. */
function toggledApp(apps: AppView[]): AppView {
  const app = apps.find((a) => /-0007$/.test(a.name));
  if (!app) throw new Error('no app *-0007 in the fleet');
  return app;
}

/** b) Change to screen, over `changes` console stops and starts of one app, with `churn` apps/s. */
export async function changeToScreen(
  browser: Browser,
  fleet: Fleet,
  changes: number,
  churn: number,
): Promise<DashboardResult> {
  const app = toggledApp(await api<AppView[]>(fleet.origin, fleet.token, '/api/apps'));
  const engine: { state: string; at: number }[] = [];
  let engineState = app.state;
  let events = 0;
  const stream = await listen(fleet, (event, at) => {
    if (event.type !== 'app') return;
    events++;
    if (event.app.appId === app.appId && event.app.state !== engineState) {
      engineState = event.app.state;
      engine.push({ state: event.app.state, at });
    }
  });
  const { context, page } = await openDashboard(browser, fleet);
  try {
    await page.getByRole('searchbox', { name: 'Search apps' }).fill(app.name);
    await page.locator(`tr[data-app-id="${app.appId}"]`).waitFor();
    await page.waitForFunction(() => (globalThis as unknown as InPage).__bench.rows() === 1);
    await page.evaluate(`(() => {
      const b = window.__bench;
      b.lastState = document.querySelector('tr[data-app-id="${app.appId}"] .badge').getAttribute('data-state');
      b.watch = '${app.appId}';
    })()`);
    const clock = await clockOffset(page);
    if (churn > 0) {
      fleet.tell(`churn ${churn}`);
      await sleep(2000);
    }
    const firstToggle = fleet.toggled.length;
    const eventsBefore = events;
    const started = now();
    for (let k = 0; k < changes; k++) {
      const seen = engine.length;
      fleet.tell(`toggle ${app.name}`);
      await page.waitForFunction(
        (k) => (globalThis as unknown as InPage).__bench.changes[k]?.painted != null,
        k,
        { timeout: 20_000 },
      );
      const deadline = Date.now() + 20_000;
      while (engine.length <= seen && Date.now() < deadline) await sleep(10);
      // Apart, so that each change is one of its own (and not in step with the fixture's batches).
      await sleep(400 + Math.random() * 400);
    }
    const churned = round(((events - eventsBefore) * 1000) / (now() - started), 1);
    if (churn > 0) fleet.tell('churn 0');
    const screen =
      await page.evaluate<{ state: string; dom: number; painted: number }[]>('window.__bench.changes');
    const toggles = fleet.toggled.slice(firstToggle);
    const toDom: number[] = [];
    const toPaint: number[] = [];
    const heard: number[] = [];
    let unpaired = 0;
    for (let k = 0; k < toggles.length; k++) {
      const from = toggles[k]!;
      const to = toggles[k + 1] ?? Number.POSITIVE_INFINITY;
      const e = engine.find((x) => x.at > from && x.at < to);
      const s = screen.find((x) => x.dom - clock.offset > from && x.dom - clock.offset < to);
      if (!e || !s || s.state !== engineStateAfter(engine, to)) {
        unpaired++;
        continue;
      }
      heard.push(e.at - from);
      toDom.push(s.dom - clock.offset - e.at);
      toPaint.push(s.painted - clock.offset - e.at);
    }
    const dom = quantiles(toDom);
    return {
      name: `dashboard change to screen, ${fleet.apps} apps, churn ${churn}/s`,
      unit: 'ms from the server event to the row in the DOM',
      median: dom.median,
      p95: dom.p95,
      worst: dom.worst,
      samples: dom.samples,
      paintedMedian: quantiles(toPaint).median,
      paintedP95: quantiles(toPaint).p95,
      paintedWorst: quantiles(toPaint).worst,
      consoleToEventMedian: quantiles(heard).median,
      consoleToEventWorst: quantiles(heard).worst,
      appEventsPerSecond: churned,
      unpaired,
      clockOffsetMs: clock.offset,
      clockRoundTripMs: clock.roundTrip,
    };
  } finally {
    stream.close();
    await context.close();
  }
}

/** The app's state in the engine's events last before `t`. */
function engineStateAfter(engine: { state: string; at: number }[], t: number): string | undefined {
  return engine.filter((x) => x.at < t).at(-1)?.state;
}

/** c) Frame times over `seconds` while `churn` apps a second change state. */
export async function frameTimes(
  browser: Browser,
  fleet: Fleet,
  churn: number,
  seconds: number,
): Promise<DashboardResult> {
  let events = 0;
  const stream = await listen(fleet, (event) => {
    if (event.type === 'app') events++;
  });
  const { context, page } = await openDashboard(browser, fleet);
  try {
    await page.evaluate('window.__bench.stopObserving()');
    await sleep(2000);
    if (churn > 0) fleet.tell(`churn ${churn}`);
    await sleep(1000);
    const eventsBefore = events;
    const started = now();
    await page.evaluate('window.__bench.startFrames()');
    await sleep(seconds * 1000);
    await page.evaluate('window.__bench.stopFrames()');
    const elapsed = now() - started;
    const appEvents = events - eventsBefore;
    if (churn > 0) fleet.tell('churn 0');
    const { frames, longtasks } = await page.evaluate<{ frames: number[]; longtasks: number[] }>(
      '({ frames: window.__bench.frames, longtasks: window.__bench.longtasks })',
    );
    const q = quantiles(frames);
    return {
      name: `dashboard frame times, ${fleet.apps} apps, churn ${churn}/s`,
      unit: 'ms between animation frames',
      median: q.median,
      p99: q.p99,
      worst: q.worst,
      samples: q.samples,
      over50ms: frames.filter((f) => f > 50).length,
      longTasks: longtasks.length,
      longTaskWorst: round(Math.max(0, ...longtasks), 1),
      longTaskTotal: round(
        longtasks.reduce((a, b) => a + b, 0),
        1,
      ),
      seconds: round(elapsed / 1000, 1),
      appEventsPerSecond: round((appEvents * 1000) / elapsed, 1),
    };
  } finally {
    stream.close();
    await context.close();
  }
}

export interface DashboardOptions {
  apps?: number;
  runs?: number;
  changes?: number;
  seconds?: number;
  churn?: number;
  /** 'first-render': part a) alone, on the `apps` fleet only (no 10-app baseline). */
  only?: 'first-render';
  /**
   * With 'first-render': another tree (a checkout of the code before a change, built, with its
   * node_modules) measured side by side with this one in the same run, `rounds` times each,
   * alternated (before, this, before, this...). Each result names its tree.
   */
  before?: string;
  rounds?: number;
  /** Chromium's own omnibox popup loaded in each new window, as by default (NO_BROWSER_UI not given). */
  browserUi?: boolean;
  /** Called with each result as soon as it is measured. */
  onResult?: (result: DashboardResult) => void;
}

export async function dashboardBench(options: DashboardOptions = {}): Promise<DashboardResult[]> {
  const { apps = 1000, runs = 7, changes = 24, seconds = 10, churn = 100, only, onResult } = options;
  const { before, rounds = 2 } = options;
  if (before && only !== 'first-render') throw new Error('--before goes with --only first-render');
  // The dashboard the server serves: built when missing or older than its sources.
  execFileSync(process.execPath, [...NODE.slice(1), 'scripts/ensure-renderer.ts'], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const results: DashboardResult[] = [];
  const note = (r: DashboardResult) => {
    results.push(r);
    onResult?.(r);
  };
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: options.browserUi ? CHROMIUM_ARGS.filter((a) => a !== NO_BROWSER_UI) : CHROMIUM_ARGS,
  });
  try {
    if (only === 'first-render') {
      const trees = before ? [before, ROOT] : [ROOT];
      for (let round = 1; round <= (before ? rounds : 1); round++) {
        for (const tree of trees) {
          await withFleet(
            apps,
            async (fleet) => {
              for (const mode of ['cold', 'signed-in', 'reload'] as const) {
                const r = await firstRender(browser, fleet, runs, mode);
                note(before ? { ...r, tree: tree === ROOT ? 'this tree' : tree, round, load: loadavg() } : r);
              }
            },
            2,
            tree,
          );
        }
      }
      return results;
    }
    const baselines = await withFleet(10, async (fleet) => [
      await firstRender(browser, fleet, runs, 'cold'),
      await firstRender(browser, fleet, runs, 'reload'),
    ]);
    for (const b of baselines) note(b);
    await withFleet(apps, async (fleet) => {
      for (const [i, mode] of (['cold', 'reload'] as const).entries()) {
        const first = await firstRender(browser, fleet, runs, mode);
        const baseline = baselines[i]!;
        note({
          ...first,
          baseline: `${baseline.name}: ${baseline.median} ms`,
          ratio: round(first.median / baseline.median, 2),
        });
      }
      const quiet = await changeToScreen(browser, fleet, changes, 0);
      note(quiet);
      const busy = await changeToScreen(browser, fleet, changes, churn);
      note({ ...busy, baseline: `churn 0: ${quiet.median} ms`, ratio: round(busy.median / quiet.median, 2) });
      const still = await frameTimes(browser, fleet, 0, seconds);
      note(still);
      const moving = await frameTimes(browser, fleet, churn, seconds);
      note({
        ...moving,
        baseline: `churn 0: median ${still.median} ms, p99 ${still.p99} ms, worst ${still.worst} ms`,
        ratio: round((moving.p99 ?? 0) / (still.p99 ?? 1), 2),
      });
    });
  } finally {
    await browser.close();
  }
  return results;
}

if (import.meta.main) {
  const { values } = parseArgs({
    options: {
      apps: { type: 'string', default: '1000' },
      runs: { type: 'string', default: '7' },
      changes: { type: 'string', default: '24' },
      seconds: { type: 'string', default: '10' },
      churn: { type: 'string', default: '100' },
      only: { type: 'string' },
      before: { type: 'string' },
      rounds: { type: 'string', default: '2' },
      'browser-ui': { type: 'boolean', default: false },
    },
  });
  if (values.only !== undefined && values.only !== 'first-render') throw new Error('--only first-render');
  await dashboardBench({
    apps: Number(values.apps),
    runs: Number(values.runs),
    changes: Number(values.changes),
    seconds: Number(values.seconds),
    churn: Number(values.churn),
    ...(values.only === 'first-render' ? { only: 'first-render' as const } : {}),
    ...(values.before ? { before: values.before, rounds: Number(values.rounds) } : {}),
    browserUi: values['browser-ui'],
    onResult: (r) => console.log(JSON.stringify(r)),
  });
}
