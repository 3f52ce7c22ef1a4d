/**
 * POST /api/apps/_bulk: one action on many apps. The whole request is checked first (the schema has
 * refused an unknown action, no app or an app named twice; here: an app the reaper does not
 * manage, a "keep awake until" out of bounds), so a bad request changes nothing. Then each app goes
 * through the same call as its own button (same checks, same history), a few at a time, and a
 * refusal of one app is its outcome, not the end of the others.
 */
import type { CallInput, CallName, CallOutput, ParsedInput } from '../../../shared/api.ts';
import { toErrorBody } from '../../../shared/api-errors.ts';
import { type BulkAction, type BulkOutcome, type BulkResult, bulkResult } from '../../../shared/bulk.ts';
import { assertNever } from '../../../shared/domain.ts';
import { InputError } from '../../../shared/errors.ts';
import type { Session } from '../session.ts';
import { MAX_KEEP_AWAKE_MS } from './app-calls.ts';
import type { CallContext, HandlersOf } from './context.ts';

/** Apps acted on at once: enough to go through a fleet quickly, few enough not to flood Clever Cloud. */
const CONCURRENCY = 8;

type SingleCall = 'reset' | 'wake' | 'keepAwake' | 'release';

export interface BulkDeps {
  /** The session, or "connect an account first". */
  need(): Session;
  /** One app's call, parsed and checked as if it came alone. */
  call<K extends SingleCall & CallName>(name: K, input: CallInput<K>): Promise<CallOutput<K>>;
}

/** The bulk call: `call` runs one app's call through the service (parsed, checked, translated). */
export function bulkCalls(ctx: CallContext, call: BulkDeps['call']): HandlersOf<'bulk'> {
  return { bulk: (input) => runBulk({ need: () => ctx.need(), call }, input) };
}

export async function runBulk(deps: BulkDeps, input: ParsedInput<'bulk'>): Promise<BulkResult> {
  const s = deps.need();
  const { action, appIds, until, source } = input;
  const unknown = appIds.flatMap((id, index) => (s.engine.get(id) ? [] : [{ id, index }]));
  if (unknown.length) {
    throw new InputError(
      unknown
        .slice(0, 20)
        .flatMap(({ id, index }) => InputError.of(`appIds.${index}`, 'notManaged', { value: id }).problems),
    );
  }
  if (action === 'keepAwake' && until !== null && until !== undefined) {
    const now = s.clock.now();
    if (until <= now) throw InputError.of('until', 'untilPast');
    if (until > now + MAX_KEEP_AWAKE_MS) throw InputError.of('until', 'untilTooFar');
  }

  const outcomes: BulkOutcome[] = new Array(appIds.length);
  let next = 0;
  const worker = async () => {
    while (next < appIds.length) {
      const index = next++;
      const appId = appIds[index]!;
      outcomes[index] = await actOn(deps, action, appId, until ?? null, source);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, appIds.length) }, worker));
  return bulkResult(action, outcomes);
}

async function actOn(
  deps: BulkDeps,
  action: BulkAction,
  appId: string,
  until: number | null,
  source: 'dashboard' | 'admin-api',
): Promise<BulkOutcome> {
  try {
    switch (action) {
      case 'reset':
        return { appId, ok: true, app: await deps.call('reset', { appId }) };
      case 'wake':
        return { appId, ok: true, app: await deps.call('wake', { appId, source }) };
      case 'keepAwake':
        return { appId, ok: true, app: await deps.call('keepAwake', { appId, until, source }) };
      case 'release':
        await deps.call('release', { appId });
        return { appId, ok: true, app: null };
      default:
        return assertNever(action);
    }
  } catch (error) {
    // A refusal of the contract (conflict, not found, unavailable...) is this app's outcome; a bug is not.
    const body = toErrorBody(error);
    if (body.error.code === 'internal') throw error;
    return { appId, ok: false, reason: body.error.message };
  }
}
