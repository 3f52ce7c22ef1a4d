/** The desktop bridge as the dashboard sees it: the language choice goes to the main process. */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../shared/api-errors.ts';
import type { Language } from '../../shared/i18n/languages.ts';
import type { LanguageBridge, ReaperBridge } from '../../shared/ipc.ts';
import { pickApi } from './pick-api.ts';

function desktopWindow(language?: LanguageBridge): Window {
  const reaper = { subscribe: () => () => undefined } as unknown as ReaperBridge;
  return { reaper: language ? { ...reaper, language } : reaper } as unknown as Window;
}

describe('the desktop bridge', () => {
  it('tells the main process the language chosen, and the system language back as null', async () => {
    const told: (Language | null)[] = [];
    const picked = pickApi(
      desktopWindow({
        set: async (choice) => {
          told.push(choice);
          return { ok: true, value: { choice, language: choice ?? 'en' } };
        },
      }),
    );
    if (!('api' in picked)) throw new Error('the desktop bridge was not picked');
    await picked.api.setLanguage?.('fr');
    await picked.api.setLanguage?.(null);
    expect(told).toEqual(['fr', null]);
  });

  it('turns a refusal into an ApiError, and has no setLanguage without the bridge', async () => {
    const picked = pickApi(
      desktopWindow({
        set: async () => ({ ok: false, error: { code: 'invalid-input', message: 'not a language' } }),
      }),
    );
    if (!('api' in picked)) throw new Error('the desktop bridge was not picked');
    await expect(picked.api.setLanguage?.('fr')).rejects.toBeInstanceOf(ApiError);
    const older = pickApi(desktopWindow());
    expect('api' in older && older.api.setLanguage).toBeFalsy();
  });
});
