/**
 * An Error cause in the language of the screen. The cause itself stays word for word in the API,
 * the stored history and the exports (the lifecycle spec's English); on screen, in another language,
 * its translation is shown with the original kept for hover and the details. A cause of no known
 * form (and any cause in English) is shown as written.
 */
import { causeKind } from '../../shared/causes.ts';
import { CAUSES } from '../../shared/domain.ts';
import { i18n } from '../i18n.ts';

/** The cause in the current language, and whether that differs from the original. */
export function causeText(cause: string): { text: string; translated: boolean } {
  const kind = causeKind(cause);
  if (kind.kind === 'unknown' || i18n.language === 'en') return { text: cause, translated: false };
  const t = i18n.t as unknown as (key: string, values?: Record<string, string>) => string;
  let text: string;
  switch (kind.kind) {
    case 'unsafeLastDeployment':
      text = t('common:causeTexts.unsafeLastDeployment', { deploymentState: kind.deploymentState });
      break;
    case 'unexpectedState':
      text = t('common:causeTexts.unexpectedState', { cleverState: kind.cleverState });
      break;
    case 'neverDeployed':
      // The history's reason may add the error after the cause: "... cannot be started (...)".
      text = t('common:causeTexts.neverDeployed') + cause.slice(CAUSES.neverDeployed.length);
      break;
    default:
      text = t(`common:causeTexts.${kind.kind}`);
  }
  return { text, translated: text !== cause };
}
