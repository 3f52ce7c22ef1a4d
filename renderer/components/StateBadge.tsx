import { CONSOLE_LABELS, type ReaperState } from '../../shared/domain.ts';
import { StateIcon } from './icons.tsx';

/** The console state with its colour and icon (the colour is never the only signal: icon + words). */
export function StateBadge({ state }: { state: ReaperState }) {
  return (
    <span className={`badge state-${state}`} data-state={state}>
      <StateIcon state={state} />
      {CONSOLE_LABELS[state]}
    </span>
  );
}
