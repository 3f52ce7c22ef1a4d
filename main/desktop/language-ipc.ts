/**
 * The IPC side of the language chosen in the dashboard's Settings: one invoke channel
 * (LANGUAGE_CHANNEL), answered only to the app's own window (the same sender check as every call).
 * The choice is kept in the desktop's preferences; the tray and the notifications follow it.
 */
import type { IpcMainInvokeEvent } from 'electron';
import type { Envelope } from '../../shared/api-errors.ts';
import { isLanguage, type Language } from '../../shared/i18n/languages.ts';
import type { LanguageState } from '../../shared/ipc.ts';
import type { Log } from '../../shared/log.ts';
import { isTrustedSender, type SenderInfo, type Trust } from './ipc.ts';

/** What the handler changes: the controller once there is one, else the preferences alone. */
export interface LanguageTarget {
  setLanguage(choice: Language | null): Language;
}

/** The handler of LANGUAGE_CHANNEL: `(event, choice)` → an envelope of the LanguageState. */
export function createLanguageHandler(target: () => LanguageTarget, trust: Trust, log?: Log) {
  return async (
    event: SenderInfo | IpcMainInvokeEvent,
    choice: unknown,
  ): Promise<Envelope<LanguageState>> => {
    if (!isTrustedSender(event as SenderInfo, trust)) {
      log?.('warn', "IPC language call refused: it does not come from the app's window");
      return { ok: false, error: { code: 'unauthorized', message: 'this page may not call the reaper' } };
    }
    if (choice !== null && !isLanguage(choice)) {
      return {
        ok: false,
        error: {
          code: 'invalid-input',
          message: `the language must be 'en', 'fr' or null (the system's), not ${JSON.stringify(choice)?.slice(0, 40)}`,
          problems: [],
        },
      };
    }
    const language = target().setLanguage(choice);
    log?.('info', `language: ${choice ?? `the system's (${language})`}`);
    return { ok: true, value: { choice, language } };
  };
}
