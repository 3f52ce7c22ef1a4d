import parsePrometheusTextFormat, { type ParsedFamily } from 'parse-prometheus-text-format';
import { afterEach, describe, expect, it } from 'vitest';
import { SECOND } from '../../shared/durations.ts';
import { ManualClock } from '../engine/clocks.ts';
import { observedPort } from '../service/observed-port.ts';
import { InProcessCleverPort } from '../simulator/in-process-port.ts';
import { SimulatedCloud } from '../simulator/model.ts';
import { errorThenSleepAndWake, harness, MONDAY_9AM } from '../testing/engine-harness.ts';
import { ReaperMetrics } from './reaper-metrics.ts';
import { Registry } from './registry.ts';

/** One sample line: its name, labels (unescaped) and value. */
interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const LABEL_PAIR = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\[\\"n])*)"/g;
const SAMPLE =
  /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{((?:[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\n]|\\[\\"n])*",?)*)\})? (-?[0-9.e+-]+|\+Inf|-Inf|NaN)$/;

/**
 * A strict reader of the text format 0.0.4, beside the package above (which is lenient, and folds
 * the label sets of a histogram into one): comments are HELP or TYPE lines, one TYPE per family before
 * its samples, every sample a name, an optional set of quoted, escaped label values and a float; a
 * histogram's buckets are cumulative per label set and end with le="+Inf" equal to its _count.
 */
function readStrict(text: string): { types: Map<string, string>; samples: Sample[] } {
  expect(text.endsWith('\n')).toBe(true);
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  for (const line of text.slice(0, -1).split('\n')) {
    if (line.startsWith('# HELP ')) continue;
    const type = /^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (counter|gauge|histogram|summary|untyped)$/.exec(line);
    if (type) {
      expect(types.has(type[1]!), `${type[1]} typed twice`).toBe(false);
      types.set(type[1]!, type[2]!);
      continue;
    }
    const m = SAMPLE.exec(line);
    expect(m, `not a sample line: ${line}`).not.toBeNull();
    const name = m![1]!;
    const family = types.get(name) ?? types.get(name.replace(/_(bucket|sum|count)$/, ''));
    expect(family, `${name} has no TYPE before it`).toBeDefined();
    const labels: Record<string, string> = {};
    for (const [, k, v] of (m![2] ?? '').matchAll(LABEL_PAIR)) {
      labels[k!] = v!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
    }
    samples.push({ name, labels, value: m![3] === '+Inf' ? Number.POSITIVE_INFINITY : Number(m![3]) });
  }
  for (const [family, type] of types) {
    if (type !== 'histogram') continue;
    const sets = new Map<string, { le: number; value: number }[]>();
    for (const s of samples.filter((x) => x.name === `${family}_bucket`)) {
      const { le, ...rest } = s.labels;
      const key = JSON.stringify(rest);
      sets.set(key, [
        ...(sets.get(key) ?? []),
        { le: le === '+Inf' ? Number.POSITIVE_INFINITY : Number(le), value: s.value },
      ]);
    }
    for (const [key, buckets] of sets) {
      const values = buckets.sort((a, b) => a.le - b.le).map((b) => b.value);
      expect(values, `${family}${key}: buckets not cumulative`).toEqual([...values].sort((a, b) => a - b));
      expect(buckets.at(-1)!.le).toBe(Number.POSITIVE_INFINITY);
      const count = samples.find((x) => x.name === `${family}_count` && JSON.stringify(x.labels) === key);
      expect(count?.value, `${family}${key}: +Inf bucket and _count differ`).toBe(values.at(-1));
      expect(samples.some((x) => x.name === `${family}_sum` && JSON.stringify(x.labels) === key)).toBe(true);
    }
  }
  return { types, samples };
}

const parse = (text: string): Map<string, ParsedFamily> => {
  readStrict(text);
  return new Map(parsePrometheusTextFormat(text).map((f) => [f.name, f]));
};

describe('the metrics registry', () => {
  it('writes counters, gauges and histograms that a Prometheus parser reads back', () => {
    const r = new Registry();
    const c = r.counter('demo_requests_total', 'Requests, with "quotes" and a \\ backslash\nand a line.', [
      'path',
    ]);
    c.inc({ path: '/a"b\\c\nd' });
    c.inc({ path: '/a"b\\c\nd' }, 2);
    c.inc({ path: '/x' });
    r.gauge('demo_up', 'Up.').set({}, 1);
    const h = r.histogram('demo_seconds', 'Durations.', ['pace'], [0.1, 1, 10]);
    h.observe({ pace: 'fast' }, 0.05);
    h.observe({ pace: 'fast' }, 2);
    h.observe({ pace: 'fast' }, 50);
    const families = parse(r.expose());
    const requests = families.get('demo_requests_total')!;
    expect(requests.type).toBe('COUNTER');
    expect(requests.help).toBe('Requests, with "quotes" and a \\ backslash\nand a line.');
    expect(requests.metrics).toContainEqual({ value: '3', labels: { path: '/a"b\\c\nd' } });
    expect(families.get('demo_up')!.metrics).toEqual([{ value: '1' }]);
    expect(families.get('demo_seconds')!.type).toBe('HISTOGRAM');
    const strict = readStrict(r.expose()).samples.filter((x) => x.labels.pace === 'fast');
    expect(strict.map((x) => `${x.name}${x.labels.le ? `{le=${x.labels.le}}` : ''} ${x.value}`)).toEqual([
      'demo_seconds_bucket{le=0.1} 1',
      'demo_seconds_bucket{le=1} 1',
      'demo_seconds_bucket{le=10} 2',
      'demo_seconds_bucket{le=+Inf} 3',
      'demo_seconds_sum 52.05',
      'demo_seconds_count 3',
    ]);
  });

  it('writes a histogram without labels as the package reads it: buckets, sum and count', () => {
    const r = new Registry();
    const h = r.histogram('demo_wake_seconds', 'Wakes.', [], [10, 60]);
    h.observe({}, 5);
    h.observe({}, 30);
    expect(parse(r.expose()).get('demo_wake_seconds')!.metrics).toEqual([
      { buckets: { '10': '1', '60': '2', '+Inf': '2' }, count: '2', sum: '35' },
    ]);
  });

  it('refuses what the format cannot carry: bad names, a reserved label, a counter going down', () => {
    const r = new Registry();
    expect(() => r.counter('bad-name', 'x')).toThrow(/invalid metric name/);
    expect(() => r.histogram('h', 'x', ['le'], [1])).toThrow(/invalid label name/);
    const c = r.counter('c_total', 'x', ['a']);
    expect(() => c.inc({ a: 'x' }, -1)).toThrow(/only goes up/);
    expect(() => c.inc({ b: 'x' })).toThrow(/takes the labels a/);
  });
});

describe('the reaper metrics', () => {
  const stops: (() => Promise<void>)[] = [];
  afterEach(async () => {
    await Promise.all(stops.splice(0).map((s) => s()));
  });

  it('expose apps per state, transitions, errors by cause, Clever Cloud calls, ticks, wake and stop durations', async () => {
    const metrics = new ReaperMetrics('1.2.3');
    const clock = new ManualClock(MONDAY_9AM);
    const cloud = new SimulatedCloud(clock, { deployDurationMs: 30 * SECOND, stopDurationMs: 5 * SECOND });
    const port = observedPort(new InProcessCleverPort(cloud), { onCall: metrics.onCall });
    const h = harness({ clock, cloud, port });
    stops.push(() => h.engine.stop());
    metrics.watch(h.engine, 'demo');
    await errorThenSleepAndWake(h);

    const families = parse(metrics.expose());
    const apps = families.get('clever_reaper_apps')!;
    expect(apps.type).toBe('GAUGE');
    expect(apps.metrics).toContainEqual({ value: '1', labels: { state: 'Error', label: 'Error' } });
    expect(apps.metrics).toContainEqual({ value: '1', labels: { state: 'Up', label: 'Up' } });
    expect(apps.metrics).toContainEqual({ value: '0', labels: { state: 'Down', label: 'Asleep' } });
    const transitions = families.get('clever_reaper_transitions_total')!.metrics;
    expect(transitions).toContainEqual({
      value: '1',
      labels: { from: 'WaitingForShutdown', to: 'Down', actor: 'reaper' },
    });
    expect(families.get('clever_reaper_errors_total')!.metrics).toEqual([
      { value: '1', labels: { cause: 'the app failed to start on clever cloud' } },
    ]);
    const calls = families.get('clever_reaper_clever_calls_total')!.metrics;
    expect(
      calls.some(
        (c) =>
          c.labels?.endpoint === 'DELETE /v2/organisations/:XXX/applications/:XXX/instances' &&
          c.labels.outcome === 'ok',
      ),
    ).toBe(true);
    expect(families.get('clever_reaper_clever_call_duration_seconds')!.type).toBe('HISTOGRAM');
    const ticks = readStrict(metrics.expose()).samples.filter(
      (x) => x.name === 'clever_reaper_job_tick_duration_seconds_count',
    );
    expect(ticks.map((t) => t.labels.pace)).toEqual(expect.arrayContaining(['sweep', 'fast']));
    expect(
      Number(families.get('clever_reaper_wake_duration_seconds')!.metrics[0]!.count),
    ).toBeGreaterThanOrEqual(1);
    expect(Number(families.get('clever_reaper_stop_duration_seconds')!.metrics[0]!.count)).toBe(1);
    expect(families.get('clever_reaper_info')!.metrics).toEqual([
      { value: '1', labels: { version: '1.2.3', mode: 'demo' } },
    ]);
    expect(families.get('clever_reaper_storage_problem')!.metrics).toEqual([{ value: '0' }]);
  });
});
