/** The waking page's words, in English and French, and what it does with what it is given. */
import { describe, expect, it } from 'vitest';
import { STATUS_PATH, wakingLanguage, wakingPage } from './waking-page.ts';

const nonce = 'bm9uY2U=';

describe('the waking page', () => {
  it('picks its language from Accept-Language, English when none it speaks is asked for', () => {
    expect(wakingLanguage('fr-FR,fr;q=0.9,en-US;q=0.8')).toBe('fr');
    expect(wakingLanguage('en-GB, fr;q=0.8')).toBe('en');
    expect(wakingLanguage('de-DE, it;q=0.5')).toBe('en');
    expect(wakingLanguage('fr;q=0, en')).toBe('en');
    expect(wakingLanguage(undefined)).toBe('en');
  });

  it('is in French for a French visitor: lang, title, heading, progress bar and the words its script writes', () => {
    const page = wakingPage({ appName: 'boutique', expectedMs: 90_000, nonce, language: 'fr' });
    expect(page).toContain('<html lang="fr">');
    expect(page).toContain('<title>Réveil de boutique…</title>');
    expect(page).toMatch(/<h1>.*Réveil de boutique<\/h1>/);
    expect(page).toContain('aria-label="Progression du démarrage"');
    // A duration never breaks across lines: no-break spaces inside it, here and in the script.
    expect(page).toContain('prête d’habitude en 1\u00a0min\u00a030\u00a0s environ');
    expect(page).toContain("num.format(s) + '\u00a0s'");
    expect(page).toContain('<span id="elapsed">0\u00a0s</span>');
    expect(page).toContain('new Intl.NumberFormat(locale)');
    expect(page).toContain('"{{duration}} écoulées"');
    expect(page).toContain('"WaitingForUp":"Se réveille"');
    expect(page).toContain('const lang = "fr";');
    expect(page).toContain('new Intl.DateTimeFormat(locale');
    expect(page).not.toMatch(/Waking up|usually ready|} elapsed"/);
  });

  it('is in English by default, as before', () => {
    const page = wakingPage({ appName: 'shop', expectedMs: null, nonce });
    expect(page).toContain('<html lang="en">');
    expect(page).toMatch(/<h1>.*Waking up shop<\/h1>/);
    expect(page).toContain('"{{duration}} elapsed"');
    expect(page).not.toContain('usually ready');
    expect(page).toContain(JSON.stringify(STATUS_PATH));
  });

  it('escapes the app name in the markup, and nothing in its script can close the script element', () => {
    const evil = '</script><img src=x onerror=alert(1)>"&';
    for (const language of ['en', 'fr'] as const) {
      const page = wakingPage({ appName: evil, expectedMs: 1000, nonce, language });
      expect(page).not.toContain('<img');
      expect(page.match(/<\/script>/g)).toHaveLength(1);
      expect(page).toContain('&#60;/script&#62;&#60;img src=x onerror=alert(1)&#62;&#34;&#38;');
    }
  });
});
