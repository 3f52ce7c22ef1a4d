/** The simulator's price system routes (v4 billing), with v4 error bodies. */
import { priceSystemView } from './price-system.ts';
import type { Replies, Route } from './routing.ts';

export function billingRoutes(replies: Replies): Route[] {
  const { send, v4Fail, ownerOf } = replies;
  return [
    {
      // The console's price system: zone_id and currency are both required (OpenAPI getPriceSystem).
      method: 'GET',
      pattern: /^\/v4\/billing\/price-system$/,
      handler: async (ctx) => {
        const zone = ctx.url.searchParams.get('zone_id');
        const currency = ctx.url.searchParams.get('currency');
        if (!zone || !currency) return v4Fail(ctx, 400, 'zone_id and currency are required');
        const view = priceSystemView(zone, currency, null);
        if (view) send(ctx, 200, view);
        else v4Fail(ctx, 404, `no price system for zone ${zone} in ${currency}`);
      },
    },
    {
      // An owner's price system (clever-client.js GetPriceSystemCommand): zone_id, in its currency.
      method: 'GET',
      pattern: /^\/v4\/billing\/organisations\/([^/]+)\/price-system$/,
      handler: async (ctx, [owner]) => {
        const ownerId = ownerOf(ctx, owner);
        if (!ownerId) return;
        const zone = ctx.url.searchParams.get('zone_id') ?? 'par';
        const view = priceSystemView(zone, 'EUR', ownerId);
        if (view) send(ctx, 200, view);
        else v4Fail(ctx, 404, `no price system for zone ${zone}`);
      },
    },
  ];
}
