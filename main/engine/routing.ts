/**
 * The engine's routing: from the routes, the rules and the application lists the sweeps read, the
 * routing of every managed app, their must-be-up schedules and their groups (see shared/rules.ts
 * for the precedence), and the wake proxy's host names.
 */
import type { AppRecord } from '../../shared/domain.ts';
import type { AppRouting } from '../../shared/routes.ts';
import { type ListedApp, resolveRouting } from '../../shared/rules.ts';
import { Schedule } from '../../shared/schedule.ts';
import type { EngineCore } from './core.ts';
import { groupSleepBlocker } from './decide-group.ts';

/** The apps of the application lists last read. */
export function listedApps(core: EngineCore): ListedApp[] {
  const out: ListedApp[] = [];
  for (const [ownerId, apps] of core.ownerApps) {
    for (const a of apps) out.push({ id: a.id, ownerId, name: a.name });
  }
  return out;
}

/** Compute the routing, schedules and groups into the core. */
export function resolveRoutingInto(core: EngineCore): void {
  const { config } = core.deps;
  const routing = resolveRouting(config.routes(), config.rules(), listedApps(core));
  const schedules = new Map<string, Schedule>();
  // Apps of one rule share its ranges: one schedule for them all.
  const byRanges = new Map<unknown, Schedule>();
  const groups = new Map<string, string[]>();
  for (const [appId, r] of routing) {
    if (r.ranges.length) {
      let schedule = byRanges.get(r.ranges);
      if (!schedule) {
        schedule = new Schedule(r.ranges);
        byRanges.set(r.ranges, schedule);
      }
      schedules.set(appId, schedule);
    }
    if (r.group) {
      const members = groups.get(r.group);
      if (members) members.push(appId);
      else groups.set(r.group, [appId]);
    }
  }
  core.routing = routing;
  core.schedules = schedules;
  core.groups = groups;
}

/** Host name -> app, from the routing (rules fill theirs in per app); built again when it changes. */
export class HostIndex {
  private built: { routing: Map<string, AppRouting>; map: Map<string, string> } | null = null;

  appFor(routing: Map<string, AppRouting>, host: string): string | undefined {
    if (this.built?.routing !== routing) {
      const map = new Map<string, string>();
      for (const [appId, r] of routing) for (const h of r.hosts) if (!map.has(h)) map.set(h, appId);
      this.built = { routing, map };
    }
    return this.built.map.get(host);
  }
}

/** An app's group as it is now: its members (the app included) and why it holds the app awake. */
export function groupOf(
  core: EngineCore,
  appId: string,
): { name: string; members: AppRecord[]; waitingFor: string | null } | null {
  const name = core.routing.get(appId)?.group;
  if (!name) return null;
  const members: AppRecord[] = [];
  for (const id of core.groups.get(name) ?? []) {
    const r = core.records.get(id);
    if (r) members.push(r);
  }
  const record = core.records.get(appId);
  const ctx = core.context(appId);
  const waitingFor = record?.state === 'Up' && ctx.group ? groupSleepBlocker(ctx.group) : null;
  return { name, members, waitingFor };
}
