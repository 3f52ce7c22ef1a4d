/** An app's Clever Cloud state as the console words it, the raw value on hover (and for screen readers). */

import { useTranslation } from 'react-i18next';
import type { AppView } from '../../../shared/app-view.ts';
import { cleverStateText } from '../../lib/clever-status.ts';

export function CleverStateLabel({ app }: { app: Pick<AppView, 'cause' | 'cleverState'> }) {
  useTranslation();
  const { label, raw } = cleverStateText(app);
  return (
    <span className="clever-state" title={raw} data-raw={app.cleverState ?? ''}>
      {label}
      <span className="visually-hidden"> ({raw})</span>
    </span>
  );
}
