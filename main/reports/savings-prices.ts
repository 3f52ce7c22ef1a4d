/**
 * Euro prices for the savings report from Clever Cloud's price system (see PRICE_SYSTEM_FACTS in
 * shared/savings.ts): each app's minimum flavor `price_id` and zone, read from its owner's
 * application list, looked up among the runtime plans of the price system of that owner and zone.
 * The console caches the price system for a day (clever-components src/lib/api-helpers.js,
 * `cacheDelay: ONE_DAY`); the plans of the apps are kept ten minutes. What cannot be priced so is
 * left to the fallback (the flavor price), with the reason.
 */
import { DAY, HOUR, MINUTE, SECOND } from '../../shared/durations.ts';
import type { AppPricePlan, PriceSystem } from '../clever/client.ts';

export interface PriceSystemReader {
  priceSystem(ownerId: string, zone: string, options?: { signal?: AbortSignal }): Promise<PriceSystem | null>;
  listPricePlans(ownerId: string, options?: { signal?: AbortSignal }): Promise<AppPricePlan[]>;
}

export function isPriceSystemReader(port: unknown): port is PriceSystemReader {
  const p = port as Partial<PriceSystemReader> | null;
  return typeof p?.priceSystem === 'function' && typeof p?.listPricePlans === 'function';
}

/** Euros per hour of one instance, per app priced by the price system; and why others were not. */
export interface RuntimePrices {
  perInstanceHourlyEur: Map<string, number>;
  problem: string | null;
}

/** The zone of an app whose listing names none: Paris, Clever Cloud's default (unconfirmed). */
const DEFAULT_ZONE = 'par';
const PLANS_TTL_MS = 10 * MINUTE;
const PRICE_SYSTEM_TTL_MS = DAY;

/** Milliseconds of an ISO 8601 duration of days, hours, minutes and seconds (PT1H...), or null. */
export function durationMs(iso: string): number | null {
  const m =
    /^P(?:(\d+(?:\.\d+)?)D)?(?:T(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?)?$/.exec(
      iso.trim().toUpperCase(),
    );
  if (!m || iso.trim().length <= 2) return null;
  const [d, h, min, s] = m.slice(1).map((v) => (v === undefined ? 0 : Number(v)));
  const ms = d! * DAY + h! * HOUR + min! * MINUTE + s! * SECOND;
  return ms > 0 ? ms : null;
}

/** The euros per hour of the runtime plan `priceId` (case does not matter), or why there are none. */
export function runtimeHourlyEur(system: PriceSystem, priceId: string): number | string {
  if (system.currency.toUpperCase() !== 'EUR') return `prices in ${system.currency}, not euros`;
  const plan = system.runtime.find((r) => r.priceId.toLowerCase() === priceId.toLowerCase());
  if (!plan) return `no plan ${priceId} in zone ${system.zone}`;
  const unit = durationMs(plan.timeUnit);
  if (unit === null) return `time unit ${plan.timeUnit} of ${priceId} not understood`;
  return (plan.price * HOUR) / unit;
}

interface Cached<T> {
  value: Promise<T>;
  until: number;
}

export class SavingsPrices {
  private readonly reader: PriceSystemReader;
  private readonly now: () => number;
  private readonly plans = new Map<string, Cached<AppPricePlan[]>>();
  private readonly systems = new Map<string, Cached<PriceSystem | null>>();

  constructor(reader: PriceSystemReader, options: { now?: () => number } = {}) {
    this.reader = reader;
    this.now = options.now ?? Date.now;
  }

  /** Prices for these apps; never throws (a failure is the `problem`, and the fallback applies). */
  async forApps(apps: readonly { appId: string; ownerId: string | null }[]): Promise<RuntimePrices> {
    const perInstanceHourlyEur = new Map<string, number>();
    const problems = new Set<string>();
    const owners = new Map<string, Set<string>>();
    for (const a of apps) {
      if (!a.ownerId) continue;
      const set = owners.get(a.ownerId) ?? new Set<string>();
      set.add(a.appId);
      owners.set(a.ownerId, set);
    }
    await Promise.all(
      [...owners].map(async ([ownerId, wanted]) => {
        let plans: AppPricePlan[];
        try {
          plans = await this.cached(this.plans, ownerId, PLANS_TTL_MS, () =>
            this.reader.listPricePlans(ownerId),
          );
        } catch (error) {
          problems.add(message(error));
          return;
        }
        for (const plan of plans) {
          if (!wanted.has(plan.appId)) continue;
          if (!plan.priceId) {
            problems.add(`no price_id for the flavor of ${plan.appId}`);
            continue;
          }
          const zone = plan.zone ?? DEFAULT_ZONE;
          let system: PriceSystem | null;
          try {
            system = await this.cached(this.systems, `${ownerId} ${zone}`, PRICE_SYSTEM_TTL_MS, () =>
              this.reader.priceSystem(ownerId, zone),
            );
          } catch (error) {
            problems.add(message(error));
            continue;
          }
          if (!system) {
            problems.add(`no price system for zone ${zone}`);
            continue;
          }
          const hourly = runtimeHourlyEur(system, plan.priceId);
          if (typeof hourly === 'number') perInstanceHourlyEur.set(plan.appId, hourly);
          else problems.add(hourly);
        }
      }),
    );
    return { perInstanceHourlyEur, problem: problems.size ? [...problems].slice(0, 3).join('; ') : null };
  }

  private cached<T>(
    cache: Map<string, Cached<T>>,
    key: string,
    ttl: number,
    load: () => Promise<T>,
  ): Promise<T> {
    const hit = cache.get(key);
    if (hit && hit.until > this.now()) return hit.value;
    const value = load();
    cache.set(key, { value, until: this.now() + ttl });
    // A failure is not kept: the next report asks again.
    value.catch(() => {
      if (cache.get(key)?.value === value) cache.delete(key);
    });
    return value;
  }
}

const byReader = new WeakMap<PriceSystemReader, SavingsPrices>();

/** The prices of these apps through `port` when it reads the price system (the HTTP client), else none. */
export async function savingsPricesFor(
  port: unknown,
  apps: readonly { appId: string; ownerId: string | null }[],
  options: { timeoutMs?: number } = {},
): Promise<RuntimePrices | undefined> {
  if (!isPriceSystemReader(port)) return undefined;
  let prices = byReader.get(port);
  if (!prices) {
    prices = new SavingsPrices(port);
    byReader.set(port, prices);
  }
  // The report does not wait long for Clever Cloud: the fallback answers meanwhile.
  const timeoutMs = options.timeoutMs ?? 5000;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<RuntimePrices>((resolve) => {
    timer = setTimeout(
      () => resolve({ perInstanceHourlyEur: new Map(), problem: 'Clever Cloud did not answer in time' }),
      timeoutMs,
    );
  });
  try {
    return await Promise.race([prices.forApps(apps), late]);
  } finally {
    clearTimeout(timer);
  }
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
