/**
 * Clever Cloud's price system as the simulator serves it: `GET /v4/billing/price-system?zone_id&currency`
 * (the console: clever-components src/lib/api-helpers.js `fetchPriceSystem`, via clever-client.js
 * esm/api/v4/billing.ts `getPriceSystem`) and `GET /v4/billing/organisations/{ownerId}/price-system
 * ?zone_id` (clever-client.js src/clients/cc-api/commands/price-system/get-price-system-command.ts).
 * Runtime plans carry `slug_id` (the flavor's `price_id`, compared without case: clever-components
 * src/lib/product.js `formatRuntimePlans`), a `time_unit` (PT1H) and a `price` in `currency`.
 *
 * The euro prices are those of the console's own fixture (clever-components
 * src/stories/fixtures/price-system.js, zone par), rounded; only the runtime plans of the simulator's
 * flavors are served, and `countable` is left empty.
 */
import type { FLAVORS } from './model.ts';

/** Euros per hour of one instance, per flavor name. */
export const RUNTIME_EUR_PER_HOUR: Record<keyof typeof FLAVORS, number> = {
  pico: 0.00625,
  nano: 0.0083333333,
  XS: 0.0222222222,
  S: 0.0444444444,
  M: 0.1055555556,
  L: 0.2111111111,
};

export const PRICE_SYSTEM_ZONES = ['par'] as const;

/** The price system of a zone in euros, or null for a zone or currency the simulator does not price. */
export function priceSystemView(zone: string, currency: string, ownerId: string | null) {
  if (!(PRICE_SYSTEM_ZONES as readonly string[]).includes(zone) || currency.toUpperCase() !== 'EUR')
    return null;
  return {
    id: `price-system-${zone}`,
    ...(ownerId ? { owner_id: ownerId } : {}),
    start_date: '2026-01-01T00:00:00Z',
    end_date: null,
    zone_id: zone,
    currency: 'EUR',
    runtime: (Object.keys(RUNTIME_EUR_PER_HOUR) as (keyof typeof FLAVORS)[]).map((name, i) => ({
      runtime_policy_id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      source: 'apps',
      flavor: name.toLowerCase(),
      time_unit: 'PT1H',
      price: RUNTIME_EUR_PER_HOUR[name],
      slug_id: `apps.${name}`,
    })),
    countable: [],
  };
}
