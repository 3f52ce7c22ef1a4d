/**
 * A small metrics registry: counters, gauges and histograms with labels, exposed in the Prometheus
 * text format 0.0.4 (https://prometheus.io/docs/instrumenting/exposition_formats/): a HELP and a TYPE
 * line per family, then its samples; label values escaped (\\, \", \n); histograms as cumulative
 * `_bucket{le="..."}` samples ending with le="+Inf", then `_sum` and `_count`.
 */

export const CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

type Labels = Record<string, string>;

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

function escapeHelp(text: string): string {
  return text.replaceAll('\\', '\\\\').replaceAll('\n', '\\n');
}

function escapeLabelValue(text: string): string {
  return text.replaceAll('\\', '\\\\').replaceAll('"', '\\"').replaceAll('\n', '\\n');
}

export function formatValue(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Number.POSITIVE_INFINITY) return '+Inf';
  if (value === Number.NEGATIVE_INFINITY) return '-Inf';
  return String(value);
}

function labelText(names: readonly string[], values: readonly string[], extra = ''): string {
  const parts = names.map((n, i) => `${n}="${escapeLabelValue(values[i] ?? '')}"`);
  if (extra) parts.push(extra);
  return parts.length ? `{${parts.join(',')}}` : '';
}

abstract class Family {
  readonly name: string;
  readonly help: string;
  readonly labelNames: readonly string[];
  abstract readonly type: 'counter' | 'gauge' | 'histogram';

  constructor(name: string, help: string, labelNames: readonly string[]) {
    if (!NAME.test(name)) throw new Error(`invalid metric name ${name}`);
    for (const l of labelNames) {
      if (!LABEL.test(l) || l.startsWith('__') || l === 'le') throw new Error(`invalid label name ${l}`);
    }
    this.name = name;
    this.help = help;
    this.labelNames = labelNames;
  }

  protected values(labels: Labels): string[] {
    const given = Object.keys(labels);
    if (given.length !== this.labelNames.length || given.some((k) => !this.labelNames.includes(k))) {
      throw new Error(`${this.name} takes the labels ${this.labelNames.join(', ') || 'none'}`);
    }
    return this.labelNames.map((n) => labels[n]!);
  }

  protected key(values: readonly string[]): string {
    return JSON.stringify(values);
  }

  abstract samples(): string[];

  expose(): string {
    return [
      `# HELP ${this.name} ${escapeHelp(this.help)}`,
      `# TYPE ${this.name} ${this.type}`,
      ...this.samples(),
    ]
      .map((l) => `${l}\n`)
      .join('');
  }
}

export class Counter extends Family {
  readonly type = 'counter';
  private readonly series = new Map<string, { values: string[]; value: number }>();

  inc(labels: Labels = {}, by = 1): void {
    if (!(by >= 0)) throw new Error(`${this.name}: a counter only goes up`);
    const values = this.values(labels);
    const key = this.key(values);
    const s = this.series.get(key);
    if (s) s.value += by;
    else this.series.set(key, { values, value: by });
  }

  get(labels: Labels = {}): number {
    return this.series.get(this.key(this.values(labels)))?.value ?? 0;
  }

  samples(): string[] {
    return [...this.series.values()].map(
      (s) => `${this.name}${labelText(this.labelNames, s.values)} ${formatValue(s.value)}`,
    );
  }
}

export class Gauge extends Family {
  readonly type = 'gauge';
  private series = new Map<string, { values: string[]; value: number }>();

  set(labels: Labels, value: number): void {
    const values = this.values(labels);
    this.series.set(this.key(values), { values, value });
  }

  /** Replace every series at once (a gauge computed at scrape time). */
  reset(entries: readonly [Labels, number][]): void {
    this.series = new Map();
    for (const [labels, value] of entries) this.set(labels, value);
  }

  get(labels: Labels = {}): number | undefined {
    return this.series.get(this.key(this.values(labels)))?.value;
  }

  samples(): string[] {
    return [...this.series.values()].map(
      (s) => `${this.name}${labelText(this.labelNames, s.values)} ${formatValue(s.value)}`,
    );
  }
}

export class Histogram extends Family {
  readonly type = 'histogram';
  readonly buckets: readonly number[];
  private readonly series = new Map<
    string,
    { values: string[]; counts: number[]; sum: number; count: number }
  >();

  constructor(name: string, help: string, labelNames: readonly string[], buckets: readonly number[]) {
    super(name, help, labelNames);
    const sorted = [...buckets].sort((a, b) => a - b);
    if (sorted.length === 0 || sorted.some((b, i) => !Number.isFinite(b) || (i > 0 && b === sorted[i - 1]))) {
      throw new Error(`${name}: buckets must be finite and distinct`);
    }
    this.buckets = sorted;
  }

  observe(labels: Labels, value: number): void {
    if (!Number.isFinite(value)) return;
    const values = this.values(labels);
    const key = this.key(values);
    let s = this.series.get(key);
    if (!s) {
      s = { values, counts: this.buckets.map(() => 0), sum: 0, count: 0 };
      this.series.set(key, s);
    }
    for (let i = 0; i < this.buckets.length; i++) if (value <= this.buckets[i]!) s.counts[i]!++;
    s.sum += value;
    s.count++;
  }

  count(labels: Labels = {}): number {
    return this.series.get(this.key(this.values(labels)))?.count ?? 0;
  }

  samples(): string[] {
    const out: string[] = [];
    for (const s of this.series.values()) {
      this.buckets.forEach((b, i) => {
        out.push(
          `${this.name}_bucket${labelText(this.labelNames, s.values, `le="${formatValue(b)}"`)} ${s.counts[i]}`,
        );
      });
      out.push(`${this.name}_bucket${labelText(this.labelNames, s.values, 'le="+Inf"')} ${s.count}`);
      out.push(`${this.name}_sum${labelText(this.labelNames, s.values)} ${formatValue(s.sum)}`);
      out.push(`${this.name}_count${labelText(this.labelNames, s.values)} ${s.count}`);
    }
    return out;
  }
}

export class Registry {
  private readonly families = new Map<string, Family>();
  private readonly collectors: (() => void)[] = [];

  counter(name: string, help: string, labelNames: readonly string[] = []): Counter {
    return this.add(new Counter(name, help, labelNames));
  }

  gauge(name: string, help: string, labelNames: readonly string[] = []): Gauge {
    return this.add(new Gauge(name, help, labelNames));
  }

  histogram(
    name: string,
    help: string,
    labelNames: readonly string[],
    buckets: readonly number[],
  ): Histogram {
    return this.add(new Histogram(name, help, labelNames, buckets));
  }

  /** Run before each exposition: for gauges read from the current state (apps per state). */
  onCollect(collect: () => void): void {
    this.collectors.push(collect);
  }

  private add<F extends Family>(family: F): F {
    if (this.families.has(family.name)) throw new Error(`metric ${family.name} registered twice`);
    this.families.set(family.name, family);
    return family;
  }

  expose(): string {
    for (const c of this.collectors) c();
    return [...this.families.values()].map((f) => f.expose()).join('');
  }
}
