/** The calls about the settings, and the team alerts (webhooks) they configure. */
import type { CallContext, HandlersOf } from './context.ts';

export type SettingsCall = 'getSettings' | 'updateSettings' | 'webhookStatus' | 'testWebhook';

export function settingsCalls(ctx: CallContext): HandlersOf<SettingsCall> {
  return {
    getSettings: async () => ctx.need().config.settings(),

    updateSettings: async (patch) => ctx.need().config.save((c) => c.updateSettings(patch)),

    webhookStatus: async () => ctx.operations().webhooks.sharedStatus(),

    testWebhook: async ({ url, format }) =>
      ctx.operations().webhooks.test({ url, format }, ctx.session?.clock.now() ?? Date.now()),
  };
}
