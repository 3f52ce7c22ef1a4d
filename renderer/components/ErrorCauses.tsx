/**
 * Over the apps table while apps are in Error: how many per cause, each with "Reset all N with this
 * cause" (one bulk Reset, its result per app below).
 */
import { useMemo } from 'react';
import type { AppView } from '../../shared/app-view.ts';
import { errorCauses } from '../lib/error-causes.ts';
import { useDashboard } from '../store/context.tsx';

export function ErrorCauses({ all }: { all: AppView[] }) {
  const causes = useMemo(() => errorCauses(all), [all]);
  const runBulk = useDashboard((s) => s.runBulk);
  const running = useDashboard((s) => s.bulkRun?.running ?? false);
  if (causes.length === 0) return null;
  return (
    <section className="error-causes" aria-label="Error causes">
      <h2>Error causes</h2>
      <ul>
        {causes.map((c) => (
          <li key={c.label}>
            <span className="cause">{c.label}</span>
            <span className="pill">{c.appIds.length}</span>
            <button type="button" disabled={running} onClick={() => void runBulk('reset', c.appIds)}>
              Reset all {c.appIds.length} with this cause
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
