/**
 * The shapes the client reads from Clever Cloud, validated at the boundary: an unexpected shape is a
 * clear `invalid-response` error naming the endpoint and the field, not a crash deeper down. They are
 * tolerant where the API facts say the real API varies: enum values it may add are kept as text,
 * fields may be absent, dates may be numbers or strings with a `[UTC]` suffix.
 */
import { z } from 'zod';

const flavorSchema = z
  .object({
    name: z.string().nullish(),
    price: z.number().nullish(),
    mem: z.number().nullish(),
    cpus: z.number().nullish(),
    /** The key of its plan in the price system (clever-client.js product-transform.ts reads it). */
    price_id: z.string().nullish(),
  })
  .passthrough();

export const applicationSchema = z
  .object({
    id: z.string().min(1),
    name: z.string().nullish(),
    ownerId: z.string().nullish(),
    state: z.string().min(1),
    last_deploy: z.number().nullish(),
    instance: z
      .object({
        minInstances: z.number().nullish(),
        maxInstances: z.number().nullish(),
        minFlavor: flavorSchema.nullish(),
        maxFlavor: flavorSchema.nullish(),
        lifetime: z.string().nullish(),
      })
      .passthrough()
      .nullish(),
    vhosts: z.array(z.object({ fqdn: z.string() }).passthrough()).nullish(),
    zone: z.string().nullish(),
    zoneId: z.string().nullish(),
  })
  .passthrough();
export type ApplicationJson = z.infer<typeof applicationSchema>;

/**
 * The price system (GET /v4/billing/price-system, GET /v4/billing/organisations/{id}/price-system):
 * the fields clever-client.js price-system-transform.ts reads; `countable` is not used here.
 */
export const priceSystemSchema = z
  .object({
    zone_id: z.string().nullish(),
    currency: z.string().min(1),
    runtime: z.array(
      z
        .object({
          slug_id: z.string().min(1),
          price: z.number(),
          time_unit: z.string().min(1),
          flavor: z.string().nullish(),
          source: z.string().nullish(),
        })
        .passthrough(),
    ),
  })
  .passthrough();

export const deploymentSchema = z
  .object({
    uuid: z.string().min(1),
    state: z.string().min(1),
    action: z.string().nullish(),
    date: z.union([z.number(), z.string()]),
    cause: z.string().nullish(),
  })
  .passthrough();

export const userSchema = z
  .object({ id: z.string().min(1), name: z.string().nullish(), email: z.string().nullish() })
  .passthrough();
export const organisationSchema = z
  .object({ id: z.string().min(1), name: z.string().nullish() })
  .passthrough();

export const startAnswerSchema = z
  .object({ deploymentId: z.string().nullish(), id: z.union([z.number(), z.string()]).nullish() })
  .passthrough()
  .nullish();

export const vhostSchema = z.object({ fqdn: z.string() }).passthrough();

/** The error bodies of the API: v2 `{id, message, type}`, v4 `{error, code}`. */
export const errorBodySchema = z
  .object({
    id: z.union([z.number(), z.string()]).nullish(),
    code: z.union([z.number(), z.string()]).nullish(),
    message: z.string().nullish(),
    error: z.string().nullish(),
  })
  .passthrough();

/**
 * A Clever Cloud date as epoch ms: int64 numbers as they are, numeric strings, and ISO strings with
 * an optional `[UTC]` (or other bracketed zone) suffix; null when unreadable.
 */
export function normalizeDate(value: number | string): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  const text = value.trim().replace(/\[[^\]]*\]$/, '');
  if (/^\d+$/.test(text)) return Number(text);
  const t = Date.parse(text);
  return Number.isFinite(t) ? t : null;
}
