/**
 * Savings: how long the managed apps slept, and what that is worth. Pure: the report's shape, the
 * price arithmetic, and where the price facts come from (shown on screen beside every figure).
 *
 * Hours asleep are the time an app spent in Down ("Asleep"). Going to sleep (WaitingForShutdown) and
 * Waking up (WaitingForUp) count as awake: Clever Cloud bills its instances until they are stopped,
 * and starts a deployment (and instances) as soon as it is asked to start. A conservative estimate.
 *
 * Money = hours asleep × instances (the app's minimum instance count) × the hourly price of its
 * (minimum) flavor. Time is counted to the second, not in 10-minute slots (that Clever Cloud bills
 * per second is stated by no Clever Cloud code: see docs/clever-cloud-facts.md). The hourly price
 * comes, in this order, from:
 * 1. Clever Cloud's price system, as the console reads it (PRICE_SYSTEM_FACTS): the runtime plan whose
 *    `slug_id` is the flavor's `price_id`, a price per `time_unit` (PT1H) in euros;
 * 2. else, as a fallback labelled so, the flavor `price` of the application converted with the unit
 *    setting (PRICE_FACTS).
 */
import { assertNever } from './domain.ts';
import type { FlavorPriceUnit, Settings } from './settings.ts';

/**
 * What is known of the flavor `price` field (ApplicationView instance.minFlavor.price).
 * The OpenAPI schema types it as a bare number, with no unit. Read from public sources:
 * - mathieuancelin/clever-ripper, src/index.js (the savings report): saved € = ceil(minutes asleep /
 *   10) × minInstances × minFlavor.price × 0.0097 — the price is read as drops per 10 minutes, and a
 *   drop as 0.0097 €;
 * - CleverCloud/clever-cloud.com, assets/js/pricer.js (the old pricing simulator): monthly € =
 *   720 h × 6 × price.value (a drop's value, from the prices endpoint) × flavor.price × instances;
 * - CleverCloud/doc.clever-cloud.com, commons/clever-cloud-overview/pricing.md: billing is counted
 *   every 10 minutes, XS costs 0.02 € per hour;
 * - a public ApplicationView sample lists the XS flavor at price 0.3436, pico 0.1073883162 and nano
 *   0.1431844215: read as drops per 10 minutes at 0.0097 €, that is 0.020 € per hour for XS (the
 *   documented price), and exactly 4.50 € and 6.00 € per 30 days for pico and nano (their list prices);
 * - against this, CleverCloud/terraform-provider-clevercloud, docs/data-sources/flavors.md, says
 *   "the flavor price per hour" (with no currency): read so, XS would cost 0.34 € an hour, 17 times its
 *   documented price.
 * So: drops per 10 minutes, 0.0097 € per drop, is the default, and it stays UNCONFIRMED by Clever Cloud
 * itself; both the unit and the value of a drop are settings.
 */
export const PRICE_FACTS = {
  field: 'instance.minFlavor.price of the Clever Cloud application (GET /v2/organisations/{id}/applications)',
  defaultReading: 'drops per 10 minutes of one instance, 1 drop = 0.0097 €',
  sources: [
    'mathieuancelin/clever-ripper src/index.js: saved € = 10-minute slots × minInstances × minFlavor.price × 0.0097',
    "CleverCloud/clever-cloud.com assets/js/pricer.js: monthly € = 720 h × 6 × a drop's value × flavor.price × instances",
    'CleverCloud/doc.clever-cloud.com pricing.md: billed every 10 minutes, XS at 0.02 € per hour (API price 0.3436)',
  ],
  against: 'CleverCloud/terraform-provider-clevercloud docs/data-sources/flavors.md says "price per hour"',
  confirmed: false,
} as const;

/*
 * PRICE_SYSTEM_FACTS: Clever Cloud's price system, the console's source of euro prices.
 * - paths: GET /v4/billing/organisations/{ownerId}/price-system?zone_id= (clever-client.js
 *   src/clients/cc-api/commands/price-system/get-price-system-command.ts); GET
 *   /v4/billing/price-system?zone_id=&currency= (clever-client.js esm/api/v4/billing.ts getPriceSystem,
 *   used by clever-components src/lib/api-helpers.js fetchPriceSystem).
 * - key: runtime[].slug_id equals the flavor's price_id, compared without case (clever-components
 *   src/lib/product.js formatRuntimePlans; clever-client.js price-system-transform.ts lowercases it).
 * - unit: runtime[].price per runtime[].time_unit (PT1H in the console fixture clever-components
 *   src/stories/fixtures/price-system.js), in the payload currency.
 */

/** Where an app's hourly price comes from: the price system, or the flavor price (the fallback). */
export type PriceSource = 'price-system' | 'flavor-price';

/** One line for the screen: where the report's prices come from. */
export function priceSourceNote(pricing: SavingsPricing): string {
  const fallback = `the flavor price read as drops per 10 minutes × ${pricing.eurPerDrop} € (a fallback)`;
  const problem = pricing.priceSystemProblem ? ` (price system: ${pricing.priceSystemProblem})` : '';
  const source = pricing.source ?? 'flavor-price';
  switch (source) {
    case 'price-system':
      return "Prices: Clever Cloud's price system (euros per hour, counted to the second).";
    case 'mixed':
      return `Prices: Clever Cloud's price system where it has the app's plan, else ${fallback}${problem}.`;
    case 'flavor-price':
      return `Prices: ${fallback}${problem}.`;
    case 'none':
      return 'Prices: none known yet.';
    default:
      return assertNever(source);
  }
}

/** Euros per hour of one instance of a flavor whose API price is `price`. */
export function hourlyPriceEur(price: number, unit: FlavorPriceUnit, eurPerDrop: number): number {
  return unit === 'eur-per-hour' ? price : price * 6 * eurPerDrop;
}

export function pricingOf(settings: Pick<Settings, 'flavorPriceUnit' | 'eurPerDrop'>): FlavorPricing {
  return {
    unit: settings.flavorPriceUnit,
    eurPerDrop: settings.eurPerDrop,
    confirmed: PRICE_FACTS.confirmed,
  };
}

/** The fallback's reading of the flavor price (see PRICE_FACTS). */
export interface FlavorPricing {
  unit: FlavorPriceUnit;
  eurPerDrop: number;
  /** Whether Clever Cloud states the unit itself (it does not, so far). */
  confirmed: boolean;
}

export interface SavingsPricing extends FlavorPricing {
  /**
   * Where the report's prices come from: the price system for every priced app, the fallback for
   * every one, both, or none known. Always set by the reaper (absent only in older reports).
   */
  source?: PriceSource | 'mixed' | 'none';
  /** Why the price system could not be used, when it could not. */
  priceSystemProblem?: string | null;
}

/** Figures over one window. Money is null when no app in it has a known flavor price. */
export interface SavingsFigures {
  /** Hours spent Asleep (Down) because the reaper put the app to sleep: the savings. */
  hoursAsleep: number;
  /** Euros not spent: hours × instances × hourly price. */
  savedEur: number | null;
  /** Dry-run: hours the apps would have slept (from a "would sleep" to the next request or change). */
  projectedHours: number;
  projectedEur: number | null;
  /**
   * Hours spent Asleep because the app was stopped outside the reaper (the Clever Cloud console,
   * clever-tools) or was already stopped when put under it: shown apart, never counted as savings.
   */
  outsideHours: number;
}

/**
 * Today, this month and this year in the report's zone (each from its first local midnight to now),
 * and all the history kept (since the oldest entry the retention left).
 */
export const SAVINGS_WINDOWS = ['today', 'month', 'year', 'all'] as const;
export type SavingsWindow = (typeof SAVINGS_WINDOWS)[number];

export interface AppSavings {
  appId: string;
  name: string;
  /** Managed now (false: released since, its history stays). */
  managed: boolean;
  flavorName: string | null;
  /** The API's price of the flavor, as given (see PRICE_FACTS for its unit). */
  flavorPrice: number | null;
  instances: number | null;
  /** Euros per hour for all its instances; null when the price or the count is not known. */
  hourlyEur: number | null;
  /** Where `hourlyEur` comes from (null when it is not known). Always set by the reaper. */
  priceSource?: PriceSource | null;
  windows: Record<SavingsWindow, SavingsFigures>;
  /** Asleep now, and whose sleep: the reaper's (saving now), or one from outside (not counted). */
  asleepNow: 'reaper' | 'outside' | null;
}

/** What the reaper saves right now: the apps it keeps asleep at this moment. */
export interface SavingNow {
  /** Euros per hour of the apps asleep now because of the reaper (those with a known price). */
  eurPerHour: number;
  /** Apps asleep now because of the reaper. */
  apps: number;
  /** Of those, the ones without a known price (left out of `eurPerHour`). */
  unpriced: number;
  /** Apps asleep now, stopped outside the reaper: not counted. */
  outsideApps: number;
}

export interface SavingsDay {
  /** The local date in the report's zone, YYYY-MM-DD. */
  day: string;
  start: number;
  end: number;
  figures: SavingsFigures;
}

export interface SavingsReport {
  /** The engine's clock when the report was made. */
  now: number;
  /** The IANA zone today, the month, the year and the days are counted in. */
  timeZone: string;
  windows: Record<SavingsWindow, { start: number; end: number }>;
  /** The apps asleep now because of the reaper, and what that saves an hour. */
  savingNow: SavingNow;
  totals: Record<SavingsWindow, SavingsFigures>;
  /** The last 30 days, oldest first, today last. */
  daily: SavingsDay[];
  /** Apps with a sleep or a projected sleep in the history kept, and every managed app. */
  apps: AppSavings[];
  pricing: SavingsPricing;
  /** Apps whose figures have no money because their flavor price is not known (yet). */
  unpriced: number;
}
