/**
 * The `t` of a language and namespace for code outside React that answers in several languages over
 * its life (the tray, the notifications, the waking page per visitor): one i18next instance per
 * language, built on first use and kept.
 */
import type { i18n, TFunction } from 'i18next';
import type { Namespace } from './catalog.ts';
import { createI18n } from './i18n.ts';
import type { Language } from './languages.ts';

const instances = new Map<Language, i18n>();

export function translator<N extends Namespace>(language: Language, ns: N): TFunction<N> {
  let instance = instances.get(language);
  if (!instance) {
    instance = createI18n(language);
    instances.set(language, instance);
  }
  return instance.getFixedT(language, ns);
}
