/**
 * A link to an app's page in the Clever Cloud console. In the browser it opens in a new tab without
 * giving the console this page (rel noopener noreferrer); on the desktop the window refuses new
 * windows and hands the link to the browser through the vetted path (main/desktop/security.ts,
 * url-policy.ts: the console's host is allowed).
 */
import { useTranslation } from 'react-i18next';
import type { AppView } from '../../../shared/app-view.ts';
import { consoleAppUrl, consoleLogsUrl } from '../../../shared/console-links.ts';
import { type ConsoleLinkKind, consoleLinkText } from '../../lib/explain.ts';

interface Props {
  app: Pick<AppView, 'appId' | 'ownerId' | 'name'>;
  kind?: ConsoleLinkKind;
  /** The short form of the table rows: "Console", with the app's name for screen readers. */
  compact?: boolean;
  tabIndex?: number;
}

export function ConsoleLink({ app, kind = 'app', compact = false, tabIndex }: Props) {
  const { t } = useTranslation(['apps', 'common']);
  const href =
    kind === 'app' ? consoleAppUrl(app.ownerId, app.appId) : consoleLogsUrl(app.ownerId, app.appId);
  const elsewhere = t('common:opensElsewhere');
  return (
    <a
      className="console-link"
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      tabIndex={tabIndex}
      data-console-link={kind}
      aria-label={compact ? t('console.compactLabel', { name: app.name, elsewhere }) : undefined}
    >
      {compact ? (
        t('console.compact')
      ) : (
        <>
          {consoleLinkText(kind)}
          <span className="visually-hidden"> {elsewhere}</span>
        </>
      )}
    </a>
  );
}
