/**
 * The apps of a session as the dashboards show them (shared/app-view.ts), with the names of their
 * owners as Clever Cloud last listed them.
 */
import type { AppView, Owner } from '../../shared/api.ts';
import { toAppView } from '../../shared/app-view.ts';
import type { AppRecord } from '../../shared/domain.ts';
import { sleepDueAt } from '../engine/decide.ts';
import type { Session } from './session.ts';

export class AppViews {
  private owners = new Map<string, string>();

  /** Remember the owners' names; true when one came, went or was renamed. */
  setOwners(owners: readonly Owner[]): boolean {
    const next = new Map(owners.map((o) => [o.id, o.name]));
    const changed = next.size !== this.owners.size || [...next].some(([id, n]) => this.owners.get(id) !== n);
    this.owners = next;
    return changed;
  }

  /** Forget the owners (the session closed). */
  clear(): void {
    this.owners = new Map();
  }

  view(s: Session, record: AppRecord): AppView {
    const now = s.clock.now();
    // The engine's own context: the rule's dry-run, and the group the app sleeps with.
    const ctx = { ...s.engine.decisionContext(record.appId), now };
    return toAppView(record, {
      ...ctx,
      ownerName: this.owners.get(record.ownerId) ?? null,
      sleepDueAt: record.state === 'Up' ? sleepDueAt(record, ctx) : null,
      handedOver: s.engine.keptAction(record.appId),
    });
  }

  all(s: Session): AppView[] {
    return s.engine.list().map((r) => this.view(s, r));
  }
}
