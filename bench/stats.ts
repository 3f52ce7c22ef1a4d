/** Small statistics for the benchmarks. */
export interface Result {
  name: string;
  unit: string;
  median: number;
  p99?: number;
  worst: number;
  samples: number;
  [extra: string]: unknown;
}

export function stats(values: number[]): { median: number; p99: number; worst: number; samples: number } {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
  return {
    median: round(at(0.5)),
    p99: round(at(0.99)),
    worst: round(sorted.at(-1) ?? Number.NaN),
    samples: sorted.length,
  };
}

export function round(x: number, digits = 3): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}
