/**
 * The language switch: as the system, English or Français. It applies at once (no reload): the
 * dashboard's i18n instance changes language, and in the desktop app the main process is told, so
 * the tray and the notifications follow (DashboardApi.setLanguage).
 */
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LANGUAGE_NAMES, LANGUAGES, type Language } from '../../../shared/i18n/languages.ts';
import { chooseLanguage, chosenLanguage, systemLanguage } from '../../i18n.ts';
import { errorText } from '../../lib/errors.ts';
import { useApi, useDashboard } from '../../store/context.tsx';

const SYSTEM = 'system';

/**
 * The desktop's language hook (LANGUAGE_IPC: `DashboardApi.setLanguage`, added by the desktop side);
 * read through this type so the dashboard builds with or without it.
 */
type WithLanguage = { setLanguage?(choice: Language | null): Promise<void> };

export function LanguageSettings() {
  const { t } = useTranslation('settings');
  const api = useApi();
  const perform = useDashboard((s) => s.perform);
  const id = useId();
  const [choice, setChoice] = useState<Language | null>(chosenLanguage);
  /** The desktop could not follow: said in the language now shown. */
  const [problem, setProblem] = useState<{ language: Language; error: string } | null>(null);

  const choose = async (next: Language | null) => {
    setChoice(next);
    setProblem(null);
    await chooseLanguage(next);
    try {
      await (api as WithLanguage).setLanguage?.(next);
    } catch (error) {
      setProblem({ language: next ?? systemLanguage(), error: errorText(error) });
    }
  };

  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('language.title')}</h2>
      <div className="pace">
        <label htmlFor={`${id}-language`}>{t('language.label')}</label>
        <select
          id={`${id}-language`}
          value={choice ?? SYSTEM}
          aria-describedby={`${id}-hint`}
          onChange={(e) => {
            const value = e.target.value;
            perform(() => choose(value === SYSTEM ? null : (value as Language)));
          }}
        >
          <option value={SYSTEM}>
            {t('language.system', { language: LANGUAGE_NAMES[systemLanguage()] })}
          </option>
          {LANGUAGES.map((l) => (
            <option key={l} value={l} lang={l}>
              {LANGUAGE_NAMES[l]}
            </option>
          ))}
        </select>
        <span className="hint" id={`${id}-hint`}>
          {t('language.hint')}
        </span>
        {problem && (
          <p className="field-error" role="alert">
            {t('language.desktopFailed', {
              language: LANGUAGE_NAMES[problem.language],
              error: problem.error,
            })}
          </p>
        )}
      </div>
    </section>
  );
}
