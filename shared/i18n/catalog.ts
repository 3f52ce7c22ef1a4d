/**
 * Every catalogue, by language and namespace. A namespace per area of the interface keeps the files
 * small and lets each area's strings be found next to each other; add a namespace in both languages
 * and list it in catalog-en.ts and catalog-fr.ts. The dashboard loads one language at a time
 * (catalogues.ts); the processes that speak both (tray, notifications, waking page) take this.
 */
import { en, type Namespace } from './catalog-en.ts';
import { fr } from './catalog-fr.ts';
import type { Language } from './languages.ts';
import type { Messages } from './messages.ts';

export { en, type Namespace };

export const CATALOG: Record<Language, { readonly [N in Namespace]: Messages<(typeof en)[N]> }> = { en, fr };

export const NAMESPACES = Object.keys(en) as Namespace[];
