/**
 * The catalogue of one language, loaded when asked for: the dashboard's bundle carries neither
 * (about 50 KB each, minified), the page loads the one it speaks, and the other when the operator
 * switches (renderer/i18n.ts). Each is a chunk of its own in the build (a dynamic import).
 */
import type { en } from './catalog-en.ts';
import type { Language } from './languages.ts';
import type { Messages } from './messages.ts';

export type Catalogue = { readonly [N in keyof typeof en]: Messages<(typeof en)[N]> };

const LOADERS: Record<Language, () => Promise<Catalogue>> = {
  en: () => import('./catalog-en.ts').then((m) => m.en),
  fr: () => import('./catalog-fr.ts').then((m) => m.fr),
};

export function loadCatalogue(language: Language): Promise<Catalogue> {
  return LOADERS[language]();
}
