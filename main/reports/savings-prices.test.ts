/**
 * Savings in euros per hour from Clever Cloud's price system, through the real client against the
 * simulator over HTTP; the flavor price (drops per 10 minutes) only as a labelled fallback.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { HOUR, MINUTE } from '../../shared/durations.ts';
import { priceSourceNote } from '../../shared/savings.ts';
import { DEFAULT_SETTINGS } from '../../shared/settings.ts';
import { FLAVORS } from '../simulator/model.ts';
import { RUNTIME_EUR_PER_HOUR } from '../simulator/price-system.ts';
import { AppFactsRecorder } from '../store/app-facts.ts';
import { type LiveHarness, liveHarness } from '../testing/live-harness.ts';
import { durationMs, runtimeHourlyEur, SavingsPrices, savingsPricesFor } from './savings-prices.ts';
import { loadSavingsReport } from './savings-report.ts';

let h: LiveHarness;
afterEach(() => h?.close());

/** Two apps asleep a while: XS (one instance) and S (two), their facts recorded as the runtime does. */
async function asleepApps() {
  h = await liveHarness({ factor: 200 });
  const xs = h.manage('xs-app', {}, { gracePeriodMs: MINUTE });
  const s = h.manage('s-app', { flavor: FLAVORS.S, instances: 2 }, { gracePeriodMs: MINUTE });
  await h.engine.start();
  await h.eventually(() => h.state(xs.id) === 'Down' && h.state(s.id) === 'Down', 'both asleep');
  await new Promise((r) => setTimeout(r, 300)); // a minute of engine time asleep
  await new AppFactsRecorder(h.store).record(await h.client.listApplications(xs.ownerId), h.clock.now());
  return { xs, s };
}

async function report() {
  const prices = await savingsPricesFor(h.client, h.engine.list());
  return loadSavingsReport({
    store: h.store,
    now: h.clock.now(),
    timeZone: 'UTC',
    settings: DEFAULT_SETTINGS,
    managed: new Map(h.engine.list().map((r) => [r.appId, r.name])),
    ...(prices ? { prices } : {}),
  });
}

describe('savings priced by the price system', () => {
  it("uses the runtime plan of each flavor's price_id, in euros per hour, counted to the second", async () => {
    const { xs, s } = await asleepApps();
    const r = await report();
    expect(r.pricing).toMatchObject({ source: 'price-system', priceSystemProblem: null });
    const byId = new Map(r.apps.map((a) => [a.appId, a]));
    expect(byId.get(xs.id)).toMatchObject({ priceSource: 'price-system' });
    expect(byId.get(xs.id)!.hourlyEur).toBeCloseTo(RUNTIME_EUR_PER_HOUR.XS, 9);
    expect(byId.get(s.id)!.hourlyEur).toBeCloseTo(2 * RUNTIME_EUR_PER_HOUR.S, 9);
    // Per second: the money is the hours asleep, not rounded to slots, times the hourly price.
    const w = byId.get(s.id)!.windows.today;
    expect(w.hoursAsleep).toBeGreaterThan(0);
    expect((w.hoursAsleep * HOUR) % (10 * MINUTE)).not.toBe(0);
    expect(w.savedEur).toBeCloseTo(w.hoursAsleep * 2 * RUNTIME_EUR_PER_HOUR.S, 12);
    expect(h.sim.calls.get('GET /v4/billing/organisations/:XXX/price-system')).toBe(1);
    expect(priceSourceNote(r.pricing)).toBe(
      "Prices: Clever Cloud's price system (euros per hour, counted to the second).",
    );
  });

  it("reads the public price system when the owner's is forbidden", async () => {
    const { xs } = await asleepApps();
    h.sim.faults.push({
      kind: 'status',
      status: 403,
      count: Infinity,
      match: '/organisations/:XXX/price-system',
    });
    const r = await report();
    expect(r.apps.find((a) => a.appId === xs.id)).toMatchObject({ priceSource: 'price-system' });
    expect(h.sim.calls.get('GET /v4/billing/price-system')).toBe(1);
  });

  it('falls back to the flavor price, labelled so, when the price system fails', async () => {
    const { xs } = await asleepApps();
    h.sim.faults.push({ kind: 'status', status: 500, count: Infinity, match: 'price-system' });
    const r = await report();
    expect(r.pricing.source).toBe('flavor-price');
    expect(r.pricing.priceSystemProblem).toContain('500');
    const app = r.apps.find((a) => a.appId === xs.id)!;
    expect(app.priceSource).toBe('flavor-price');
    expect(app.hourlyEur).toBeCloseTo(FLAVORS.XS.price * 6 * DEFAULT_SETTINGS.eurPerDrop, 12);
    expect(priceSourceNote(r.pricing)).toMatch(
      /^Prices: the flavor price read as drops .* \(a fallback\) \(price system: /,
    );
  });
});

describe('the price system arithmetic', () => {
  const system = (currency = 'EUR', timeUnit = 'PT1H') => ({
    zone: 'par',
    currency,
    runtime: [{ priceId: 'apps.XS', price: 0.03, timeUnit }],
  });

  it('reads time units as ISO 8601 durations and matches price ids without case', () => {
    expect(durationMs('PT1H')).toBe(HOUR);
    expect(durationMs('PT10M')).toBe(10 * MINUTE);
    expect(durationMs('P1D')).toBe(24 * HOUR);
    expect(durationMs('P')).toBeNull();
    expect(durationMs('one hour')).toBeNull();
    expect(runtimeHourlyEur(system(), 'APPS.xs')).toBeCloseTo(0.03, 12);
    expect(runtimeHourlyEur(system('EUR', 'PT10M'), 'apps.XS')).toBeCloseTo(0.18, 12);
  });

  it('says why a plan cannot be used: another currency, no such plan, an unknown unit', () => {
    expect(runtimeHourlyEur(system('USD'), 'apps.XS')).toBe('prices in USD, not euros');
    expect(runtimeHourlyEur(system(), 'apps.M')).toBe('no plan apps.M in zone par');
    expect(runtimeHourlyEur(system('EUR', 'monthly'), 'apps.XS')).toBe(
      'time unit monthly of apps.XS not understood',
    );
  });

  it('keeps the price system a day and the plans ten minutes, and asks again after a failure', async () => {
    let now = 0;
    let systems = 0;
    let plans = 0;
    let failNext = true;
    const prices = new SavingsPrices(
      {
        priceSystem: async () => {
          systems++;
          if (failNext) {
            failNext = false;
            throw new Error('down');
          }
          return system();
        },
        listPricePlans: async (ownerId) => {
          plans++;
          return [{ appId: 'app_1', ownerId, priceId: 'apps.XS', zone: 'par' }];
        },
      },
      { now: () => now },
    );
    const apps = [{ appId: 'app_1', ownerId: 'orga_1' }];
    expect((await prices.forApps(apps)).problem).toBe('down');
    expect((await prices.forApps(apps)).perInstanceHourlyEur.get('app_1')).toBeCloseTo(0.03, 12);
    now += 11 * MINUTE;
    await prices.forApps(apps);
    expect({ systems, plans }).toEqual({ systems: 2, plans: 2 });
    now += 24 * HOUR;
    await prices.forApps(apps);
    expect({ systems, plans }).toEqual({ systems: 3, plans: 3 });
  });
});
