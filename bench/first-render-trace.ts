/**
 * Where a cold first render's time goes: loads of the dashboard in a new browser context each (as
 * bench/dashboard.ts measures them), each with a performance trace (Chromium's tracing over CDP,
 * its sampling profiler included), summarised:
 *  - the CPU time of each process's busiest thread during the load, by what the process showed (the
 *    dashboard's renderer, Chromium's own pages such as chrome://omnibox-popup.top-chrome, the
 *    browser process): what else the machine's cores were doing;
 *  - the dashboard renderer's JavaScript, self time per function, from navigation start to the rows.
 *
 *   npx node bench/first-render-trace.ts [--apps 1000] [--loads 2] [--top 25] [--out DIR] [--browser-ui]
 *
 * --out DIR keeps each trace (trace-N.json, for Chromium's DevTools performance panel); --browser-ui
 * loads Chromium's omnibox popup in each new window, as by default (bench/dashboard.ts NO_BROWSER_UI).
 * A build without minification (`npx vite build --minify false`) names the functions.
 */
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, NO_BROWSER_UI, openDashboard } from './dashboard.ts';
import { withFleet } from './fleet.ts';
import { round } from './stats.ts';

const { values } = parseArgs({
  options: {
    apps: { type: 'string', default: '1000' },
    loads: { type: 'string', default: '2' },
    top: { type: 'string', default: '25' },
    out: { type: 'string' },
    'browser-ui': { type: 'boolean', default: false },
  },
});

const CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'v8.execute',
  'blink',
  'blink.user_timing',
  'loading',
  'toplevel',
  'disabled-by-default-v8.cpu_profiler',
];

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  // biome-ignore lint/suspicious/noExplicitAny: Chromium's trace arguments, read by name
  args?: any;
}
interface ProfileNode {
  id: number;
  parent?: number;
  callFrame: { functionName: string; url?: string; lineNumber?: number };
}

/** The summary of one trace, `rowsMs` after the page's navigation start. */
function summarise(events: TraceEvent[], rowsMs: number, top: number) {
  const threadName = new Map<string, string>();
  for (const e of events)
    if (e.ph === 'M' && e.name === 'thread_name') threadName.set(`${e.pid}:${e.tid}`, e.args.name);
  const page = events.find((e) => e.name === 'CommitLoad' && /^https?:/.test(e.args?.data?.url ?? ''));
  if (!page) throw new Error('no commit of the dashboard in the trace');
  const start = events.find(
    (e) => e.name === 'navigationStart' && e.pid === page.pid && /http/.test(JSON.stringify(e.args)),
  );
  const t0 = start?.ts ?? page.ts;
  const t1 = t0 + rowsMs * 1000;
  // What each renderer showed: the first document it committed.
  const shown = new Map<number, string>();
  for (const e of events)
    if (e.name === 'CommitLoad' && !shown.has(e.pid)) shown.set(e.pid, String(e.args?.data?.url ?? ''));
  const busy = new Map<string, number>();
  for (const e of events) {
    if (e.ph !== 'X' || e.name !== 'ThreadControllerImpl::RunTask' || e.dur === undefined) continue;
    const from = Math.max(e.ts, t0);
    const to = Math.min(e.ts + e.dur, t1);
    if (to <= from) continue;
    const what = `${shown.get(e.pid) ?? 'browser or service'} (${threadName.get(`${e.pid}:${e.tid}`) ?? e.tid})`;
    busy.set(what, (busy.get(what) ?? 0) + (to - from) / 1000);
  }
  // The page's samples, navigation start to the rows.
  const nodes = new Map<number, ProfileNode>();
  const samples: number[] = [];
  const deltas: number[] = [];
  let profileStart = 0;
  for (const e of events) {
    if (e.pid !== page.pid) continue;
    if (e.name === 'Profile') profileStart = e.args.data.startTime;
    if (e.name === 'ProfileChunk') {
      for (const n of e.args.data.cpuProfile?.nodes ?? []) nodes.set(n.id, n);
      samples.push(...(e.args.data.cpuProfile?.samples ?? []));
      deltas.push(...(e.args.data.timeDeltas ?? []));
    }
  }
  const self = new Map<string, number>();
  let t = profileStart;
  for (let i = 0; i < samples.length; i++) {
    t += deltas[i]!;
    if (t < t0 || t > t1) continue;
    const node = nodes.get(samples[i]!);
    if (!node) continue;
    const f = node.callFrame;
    // Native frames ((program), (garbage collector)) have no URL.
    const file =
      (f.url ?? '')
        .split('/')
        .at(-1)
        ?.replace(/-[\w-]{8}\.js$/, '.js') ?? '';
    const name = `${f.functionName || '(anonymous)'}${file ? ` ${file}:${(f.lineNumber ?? 0) + 1}` : ''}`;
    self.set(name, (self.get(name) ?? 0) + (deltas[i + 1] ?? 0) / 1000);
  }
  const ranked = (m: Map<string, number>, n: number) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, v]) => `${round(v, 1)} ms  ${k}`);
  return { busiestThreads: ranked(busy, 8), pageSelfTime: ranked(self, top) };
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: values['browser-ui'] ? CHROMIUM_ARGS.filter((a) => a !== NO_BROWSER_UI) : CHROMIUM_ARGS,
});
try {
  await withFleet(Number(values.apps), async (fleet) => {
    // A warm-up load, not traced.
    const warm = await openDashboard(browser, fleet);
    await warm.context.close();
    for (let i = 0; i < Number(values.loads); i++) {
      await browser.startTracing(undefined, { categories: CATEGORIES });
      const { context, page } = await openDashboard(browser, fleet);
      const rowsMs = await page.evaluate<number>('window.__bench.firstRows');
      await context.close();
      const trace = (await browser.stopTracing()).toString();
      if (values.out) writeFileSync(`${values.out}/trace-${i}.json`, trace);
      const parsed = JSON.parse(trace) as { traceEvents: TraceEvent[] } | TraceEvent[];
      const events = Array.isArray(parsed) ? parsed : parsed.traceEvents;
      console.log(
        JSON.stringify(
          {
            load: i,
            rowsMs: round(rowsMs, 1),
            loadAverage: loadavg(),
            ...summarise(events, rowsMs, Number(values.top)),
          },
          null,
          1,
        ),
      );
    }
  });
} finally {
  await browser.close();
}
