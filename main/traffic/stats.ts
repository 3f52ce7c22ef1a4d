/**
 * What the traffic sources saw per app: requests counted as traffic, and requests ignored by the
 * route's filters with the reason (so the dashboard can say "41 monitor pings ignored").
 */
import type { TrafficSource } from '../../shared/domain.ts';

export interface AppTraffic {
  counted: number;
  ignored: Record<string, number>;
  lastIgnoredAt: number | null;
  bySource: Partial<Record<TrafficSource, number>>;
}

export class TrafficStats {
  private apps = new Map<string, AppTraffic>();

  private of(appId: string): AppTraffic {
    let t = this.apps.get(appId);
    if (!t) {
      t = { counted: 0, ignored: {}, lastIgnoredAt: null, bySource: {} };
      this.apps.set(appId, t);
    }
    return t;
  }

  counted(appId: string, source: TrafficSource): void {
    const t = this.of(appId);
    t.counted++;
    t.bySource[source] = (t.bySource[source] ?? 0) + 1;
  }

  ignored(appId: string, reason: string, at: number): void {
    const t = this.of(appId);
    t.ignored[reason] = (t.ignored[reason] ?? 0) + 1;
    t.lastIgnoredAt = at;
  }

  get(appId: string): AppTraffic {
    const t = this.apps.get(appId);
    return t ? structuredClone(t) : { counted: 0, ignored: {}, lastIgnoredAt: null, bySource: {} };
  }
}
