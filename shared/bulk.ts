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
import { noRepeats, says } from './validation.ts';

export const BULK_ACTIONS = ['reset', 'wake', 'keepAwake', 'release'] as const;
export type BulkAction = (typeof BULK_ACTIONS)[number];

/** The most apps one request may name (the fleet benchmark has a thousand). */
export const MAX_BULK_APPS = 5000;

const instant = z.union([
  z.number().int(),
  z.iso.datetime({ offset: true, message: says('notInstant') }).transform(Date.parse),
]);

export const bulkInputSchema = z
  .object({
    action: z.enum(BULK_ACTIONS),
    appIds: z
      .array(z.string().regex(APP_ID_PATTERN, says('appId')))
      .min(1)
      .max(MAX_BULK_APPS)
      .superRefine(noRepeats()),
    /** For keepAwake only: no sleep before this instant; null cancels. */
    until: instant.nullable().optional(),
    source: z.enum(['dashboard', 'admin-api']).default('admin-api'),
  })
  .strict()
  .superRefine((input, ctx) => {
    if (input.action === 'keepAwake' && input.until === undefined) {
      ctx.addIssue({ code: 'custom', path: ['until'], message: says('untilMissing') });
    }
    if (input.action !== 'keepAwake' && input.until !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['until'], message: says('untilOnlyKeepAwake') });
    }
  });

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
