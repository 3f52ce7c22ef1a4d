/**
 * The price system calls of the Clever Cloud client: the prices of a zone, and each app's plan key in
 * them (the savings report multiplies the two).
 */
import type { z } from 'zod';
import { CleverCallError } from '../../shared/port-errors.ts';
import { type CleverHttp, ownerPath } from './http.ts';
import { applicationSchema, priceSystemSchema } from './schemas.ts';

/** A price system: runtime plans by price id (the flavor's `price_id`), each a price per time unit. */
export interface PriceSystem {
  zone: string;
  currency: string;
  runtime: { priceId: string; price: number; timeUnit: string }[];
}

export interface AppPricePlan {
  appId: string;
  ownerId: string;
  priceId: string | null;
  zone: string | null;
}

/**
 * The price system of a zone, as the console reads it: the owner's own first
 * (`/v4/billing/organisations/{ownerId}/price-system?zone_id=`, clever-client.js
 * GetPriceSystemCommand), else the public one (`/v4/billing/price-system?zone_id=&currency=`,
 * clever-components api-helpers.js fetchPriceSystem). null when neither has one (404).
 */
export async function readPriceSystem(
  http: CleverHttp,
  ownerId: string,
  zone: string,
  options: { signal?: AbortSignal; currency?: string },
): Promise<PriceSystem | null> {
  const signal = options.signal ? { signal: options.signal } : {};
  let raw: z.output<typeof priceSystemSchema> | null = null;
  try {
    raw = await http.get(
      `v4/billing/organisations/${encodeURIComponent(ownerId)}/price-system`,
      priceSystemSchema,
      { ...signal, searchParams: { zone_id: zone } },
      null,
    );
  } catch (error) {
    // An owner the credentials may not read the billing of: the public prices still apply.
    if (!(error instanceof CleverCallError && error.kind === 'forbidden')) throw error;
  }
  raw ??= await http.get(
    'v4/billing/price-system',
    priceSystemSchema,
    { ...signal, searchParams: { zone_id: zone, currency: options.currency ?? 'EUR' } },
    null,
  );
  if (!raw) return null;
  return {
    zone: raw.zone_id ?? zone,
    currency: raw.currency,
    runtime: raw.runtime.map((r) => ({ priceId: r.slug_id, price: r.price, timeUnit: r.time_unit })),
  };
}

/** Each app's flavor plan key (`price_id` of its minimum flavor) and zone, for the price system. */
export async function readPricePlans(
  http: CleverHttp,
  ownerId: string,
  options: { signal?: AbortSignal },
): Promise<AppPricePlan[]> {
  const apps = await http.get(`${ownerPath(ownerId)}/applications`, applicationSchema.array(), options);
  return apps.map((a) => {
    const flavor = a.instance?.minFlavor ?? a.instance?.maxFlavor ?? null;
    return {
      appId: a.id,
      ownerId: a.ownerId ?? ownerId,
      priceId: flavor?.price_id ?? null,
      zone: a.zone ?? a.zoneId ?? null,
    };
  });
}
