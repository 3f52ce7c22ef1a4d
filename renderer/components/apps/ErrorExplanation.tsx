/**
 * An app in Error, in the details: the cause word for word, then what it means, what to do next
 * and who can, what the reaper saw last (fail timeouts), the console links, and Reset.
 */
import { useTranslation } from 'react-i18next';
import type { AppView } from '../../../shared/app-view.ts';
import type { HistoryEntry } from '../../../shared/domain.ts';
import { causeText } from '../../lib/cause-text.ts';
import { explainError } from '../../lib/explain.ts';
import { useDashboard } from '../../store/context.tsx';
import { ActionButton } from '../common/ActionButton.tsx';
import { ConsoleLink } from '../common/ConsoleLink.tsx';

interface Props {
  app: AppView;
  history: readonly HistoryEntry[];
  onOutcome: (answer: AppView | null) => void;
}

export function ErrorExplanation({ app, history, onOutcome }: Props) {
  const { t } = useTranslation(['apps', 'common']);
  const failTimeoutMs = useDashboard((s) => s.settings?.failTimeoutMs ?? null);
  const explained = explainError(app, history, failTimeoutMs);
  if (!explained) return null;
  const recorded = app.cause ?? '';
  const cause = causeText(recorded);
  return (
    <div className="callout danger error-explained" role="alert">
      <div>
        <p>
          <strong>{t('error.label')}</strong>
          <span className="cause" title={cause.translated ? recorded : undefined}>
            {cause.text}
          </span>
        </p>
        {cause.translated && (
          <p className="cause-original muted">
            <span lang="en">{t('common:causeOriginal', { cause: recorded })}</span>
          </p>
        )}
        <h3>{explained.title}</h3>
        <p>{explained.what}</p>
        {explained.lastSeen && (
          <>
            <p className="muted">{t('error.lastSeen')}</p>
            <ul className="plain last-seen" aria-label={t('error.lastSeenLabel')}>
              {explained.lastSeen.map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
          </>
        )}
        <p className="next-step">
          <strong>{t('error.next')}</strong>
          {explained.next}
        </p>
        {explained.command && (
          <p>
            <code>{explained.command}</code>
          </p>
        )}
        <p className="row-of-links">
          {explained.links.map((kind) => (
            <ConsoleLink key={kind} app={app} kind={kind} />
          ))}
        </p>
      </div>
      <ActionButton app={app} action="reset" primary onDone={onOutcome} />
    </div>
  );
}
