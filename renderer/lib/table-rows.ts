/**
 * The rows of the apps table: the apps as sorted, or grouped by owner under collapsible headers
 * (the owners by name, each header with its count; a collapsed group shows its header only).
 */

import type { AppView } from '../../shared/app-view.ts';
import { ownerLabel } from './format.ts';

export type TableRow =
  | { kind: 'app'; key: string; app: AppView }
  | { kind: 'group'; key: string; ownerId: string; name: string; count: number; collapsed: boolean };

export function tableRows(apps: AppView[], byOwner: boolean, collapsed: ReadonlySet<string>): TableRow[] {
  if (!byOwner) return apps.map((app) => ({ kind: 'app', key: app.appId, app }));
  const groups = new Map<string, { name: string; apps: AppView[] }>();
  for (const app of apps) {
    const group = groups.get(app.ownerId) ?? { name: ownerLabel(app), apps: [] };
    group.apps.push(app);
    groups.set(app.ownerId, group);
  }
  const rows: TableRow[] = [];
  const owners = [...groups].sort((a, b) => a[1].name.localeCompare(b[1].name) || a[0].localeCompare(b[0]));
  for (const [ownerId, group] of owners) {
    const isCollapsed = collapsed.has(ownerId);
    rows.push({
      kind: 'group',
      key: `group:${ownerId}`,
      ownerId,
      name: group.name,
      count: group.apps.length,
      collapsed: isCollapsed,
    });
    if (!isCollapsed) for (const app of group.apps) rows.push({ kind: 'app', key: app.appId, app });
  }
  return rows;
}

/** The ids of the apps the rows show, in order (what a Shift range and Ctrl/Cmd+A go over). */
export function shownIds(rows: readonly TableRow[]): string[] {
  return rows.flatMap((r) => (r.kind === 'app' ? [r.app.appId] : []));
}
