import { useTranslation } from 'react-i18next';
import type { ReaperState } from '../../../shared/domain.ts';
import { StateIcon } from './icons.tsx';

/** The console state with its colour and icon (the colour is never the only signal: icon + words). */
export function StateBadge({ state }: { state: ReaperState }) {
  const { t } = useTranslation();
  return (
    <span className={`badge state-${state}`} data-state={state}>
      <StateIcon state={state} />
      {t(`states.${state}`)}
    </span>
  );
}
