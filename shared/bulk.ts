/**
 * Bulk actions: one operator action (Reset, Wake, Keep awake until, Disable) on a selection of apps,
 * answered with one outcome per app. The whole request is checked before anything is done (an
 * unknown action, no app, an app twice, an app the reaper does not manage, a "keep awake until" in
 * the past: refused with nothing applied); once it is valid, each app is acted on in turn and a
 * refusal of one (an app in Error cannot be woken) does not stop the others.
 */
import { z } from 'zod';
import type { AppView } from './app-view.ts';
import { APP_ID_PATTERN } from './routes.ts';

export const BULK_ACTIONS = ['reset', 'wake', 'keepAwake', 'release'] as const;
export type BulkAction = (typeof BULK_ACTIONS)[number];

/** The most apps one request may name (the fleet benchmark has a thousand). */
export const MAX_BULK_APPS = 5000;

/** What the dashboard calls each action. */
export const BULK_LABELS: Record<BulkAction, string> = {
  reset: 'Reset',
  wake: 'Wake',
  keepAwake: 'Keep awake',
  release: 'Disable',
};

const instant = z.union([
  z.number().int('epoch milliseconds, a whole number'),
  z.iso
    .datetime({ offset: true, message: 'an ISO 8601 date-time (2026-01-05T18:00:00Z) or epoch ms' })
    .transform(Date.parse),
]);

export const bulkInputSchema = z
  .object({
    action: z.enum(BULK_ACTIONS, { message: `one of ${BULK_ACTIONS.join(', ')}` }),
    appIds: z
      .array(z.string().regex(APP_ID_PATTERN, 'an application id looks like app_0a1b2c3d-...'))
      .min(1, 'name at least one app')
      .max(MAX_BULK_APPS, `at most ${MAX_BULK_APPS} apps`)
      .superRefine((ids, ctx) => {
        const seen = new Set<string>();
        ids.forEach((id, index) => {
          if (seen.has(id)) ctx.addIssue({ code: 'custom', path: [index], message: `${id} is named twice` });
          seen.add(id);
        });
      }),
    /** For keepAwake only: no sleep before this instant; null cancels. */
    until: instant.nullable().optional(),
    source: z.enum(['dashboard', 'admin-api']).default('admin-api'),
  })
  .strict()
  .superRefine((input, ctx) => {
    if (input.action === 'keepAwake' && input.until === undefined) {
      ctx.addIssue({ code: 'custom', path: ['until'], message: 'keep awake until when (or null to cancel)' });
    }
    if (input.action !== 'keepAwake' && input.until !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['until'], message: 'only for the keepAwake action' });
    }
  });

export type BulkInput = z.input<typeof bulkInputSchema>;

/** What became of one app of the request. */
export type BulkOutcome =
  /** Done: the app as it is now (null once released by Disable). */
  | { appId: string; ok: true; app: AppView | null }
  /** Refused for this app (the others went on): why, in words. */
  | { appId: string; ok: false; reason: string };

export interface BulkResult {
  action: BulkAction;
  /** One per app of the request, in its order. */
  outcomes: BulkOutcome[];
  succeeded: number;
  refused: number;
}

/** The result of the outcomes, counted. */
export function bulkResult(action: BulkAction, outcomes: BulkOutcome[]): BulkResult {
  const succeeded = outcomes.filter((o) => o.ok).length;
  return { action, outcomes, succeeded, refused: outcomes.length - succeeded };
}
