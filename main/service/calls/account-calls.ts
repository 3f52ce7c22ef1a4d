/**
 * The calls about the session and the account: the snapshot and status, the owners and their apps
 * on Clever Cloud, the credentials, connecting an account or trying the demo.
 */

import { NotFoundError } from '../../../shared/errors.ts';
import { CleverCallError } from '../../../shared/port-errors.ts';
import { DEFAULT_SETTINGS } from '../../../shared/settings.ts';
import type { CallContext, HandlersOf } from './context.ts';

export type AccountCall =
  | 'snapshot'
  | 'status'
  | 'listOwners'
  | 'listOwnerApps'
  | 'credentials'
  | 'connect'
  | 'startDemo';

export function accountCalls(ctx: CallContext): HandlersOf<AccountCall> {
  return {
    snapshot: async () => {
      const status = await ctx.status();
      // Everything below in one synchronous step, so that `seq` says exactly what it includes.
      const s = ctx.session;
      return {
        seq: ctx.seq,
        status,
        apps: s ? ctx.views(s) : [],
        routes: s ? [...s.config.routes()] : [],
        rules: s ? [...s.config.rules()] : [],
        settings: s ? s.config.settings() : DEFAULT_SETTINGS,
      };
    },

    status: () => ctx.status(),

    listOwners: async () => {
      const s = ctx.need();
      const owners = await s.clever.listOwners();
      ctx.rememberOwners(owners);
      return owners.map((o) => ({ id: o.id, name: o.name }));
    },

    listOwnerApps: async ({ ownerId }) => {
      const s = ctx.need();
      let apps: Awaited<ReturnType<typeof s.clever.listApplications>>;
      try {
        apps = await s.clever.listApplications(ownerId);
      } catch (error) {
        if (error instanceof CleverCallError && (error.kind === 'not-found' || error.kind === 'forbidden')) {
          throw new NotFoundError(`owner ${ownerId}`);
        }
        throw error;
      }
      const routes = s.config.routes();
      return apps
        .map((a) => ({
          id: a.id,
          name: a.name,
          ownerId,
          cleverState: String(a.state),
          routeIds: routes.filter((r) => r.appId === a.id).map((r) => r.id),
        }))
        .sort((a, b) => a.name.localeCompare(b.name));
    },

    credentials: () => ctx.credentials.status(),

    connect: async (input) => {
      const clever = await ctx.credentials.connect(input);
      await ctx.switchTo(() => ctx.sessions.account(clever));
      return ctx.status();
    },

    startDemo: async () => {
      if (ctx.session?.mode !== 'demo') await ctx.switchTo(() => ctx.sessions.demo());
      return ctx.status();
    },
  };
}
