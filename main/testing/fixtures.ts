/**
 * Builders of the engine's plain values for tests that call the pure functions (decide, the wake
 * sources, the app view) or the datastores: one managed app's routing, one history entry, with the
 * fields a test is about overridden. Test-only.
 */
import type { HistoryEntry } from '../../shared/domain.ts';
import { HOUR } from '../../shared/durations.ts';
import type { AppRouting } from '../../shared/routes.ts';

export const TEST_OWNER = 'orga_00000000-0000-4000-8000-000000000002';

/** A managed app's routing: one route, no range, no host, every source, not dry-run, no group. */
export function managedRouting(overrides: Partial<AppRouting> = {}): AppRouting {
  return {
    managed: true,
    ownerId: TEST_OWNER,
    gracePeriodMs: HOUR,
    ranges: [],
    hosts: [],
    filters: { pathPrefixes: [], sources: [] },
    routeIds: ['route_1'],
    ruleId: null,
    dryRun: false,
    group: null,
    ...overrides,
  };
}

/** A history entry: by default the reaper's Up -> WaitingForShutdown of an idle app. */
export function historyEntry(appId: string, at: number, fields: Partial<HistoryEntry> = {}): HistoryEntry {
  return {
    appId,
    at,
    kind: 'transition',
    from: 'Up',
    to: 'WaitingForShutdown',
    actor: 'reaper',
    reason: 'idle',
    ...fields,
  };
}
