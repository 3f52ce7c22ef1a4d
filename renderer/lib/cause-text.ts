/**
 * An Error cause in the language of the screen. The cause itself stays word for word in the API,
 * the stored history and the exports (the lifecycle spec's English); on screen, in another language,
 * its translation is shown with the original kept for hover and the details. A cause of no known
 * form (and any cause in English) is shown as written.
 */
import { readRefusal } from '../../shared/bulk-refusals.ts';
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

/**
 * A bulk action's refusal of one app in the language of the screen: the service writes it in
 * English (kept as written in the API), a known form is said in the current language with its Error
 * cause translated too; a refusal of no known form is read as a cause (or shown as written).
 */
export function refusalText(reason: string): { text: string; translated: boolean } {
  const read = readRefusal(reason);
  if (!read || i18n.language === 'en') return causeText(reason);
  const parts = { ...read.parts };
  if (parts.cause !== undefined) parts.cause = causeText(parts.cause).text;
  const t = i18n.t as unknown as (key: string, values?: Record<string, string>) => string;
  const text = t(`apps:bulk.refusals.${read.key}`, parts);
  return { text, translated: text !== reason };
}
