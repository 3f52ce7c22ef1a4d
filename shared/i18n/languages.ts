/**
 * The languages of the interface, and how one is picked: the operator's choice in Settings when
 * there is one, else the first of the system's or browser's preferred languages that we speak, else
 * English.
 */
export const LANGUAGES = ['en', 'fr'] as const;
export type Language = (typeof LANGUAGES)[number];

/** How each language names itself, for the language switch. */
export const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', fr: 'Français' };

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/**
 * The language for a list of BCP 47 tags in order of preference ("fr-CA", "en-GB", ...), as
 * `navigator.languages`, Electron's `app.getPreferredSystemLanguages()` or an Accept-Language
 * header give them. `choice` (the operator's, if any) wins.
 */
export function pickLanguage(preferred: readonly string[], choice?: unknown): Language {
  if (isLanguage(choice)) return choice;
  for (const tag of preferred) {
    const base = tag.trim().toLowerCase().split(/[-_]/)[0];
    if (isLanguage(base)) return base;
  }
  return 'en';
}

/** The tags of an Accept-Language header, by decreasing quality ("fr-CH, fr;q=0.9, en;q=0.8"). */
export function acceptLanguageTags(header: string | undefined): string[] {
  if (!header) return [];
  return header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find(Boolean);
      return { tag: tag.trim(), q: q === undefined ? 1 : Number(q), index };
    })
    .filter((entry) => entry.tag && entry.tag !== '*' && entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .map((entry) => entry.tag);
}

/**
 * The Intl locale of `language` for a list of preferred tags (the browser's, or an Accept-Language
 * header's): the first tag of that language ("en-GB", "fr-CA": their own date order and separators),
 * else the language itself.
 */
export function localeFor(language: string, tags: readonly string[]): string {
  const tag = tags.find((t) => t.toLowerCase().split(/[-_]/)[0] === language);
  try {
    if (tag) return Intl.getCanonicalLocales(tag)[0] ?? language;
  } catch {
    // A tag Intl does not take: the language alone.
  }
  return language;
}
