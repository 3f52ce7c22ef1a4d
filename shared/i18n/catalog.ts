/**
 * Every catalogue, by language and namespace. A namespace per area of the interface keeps the files
 * small and lets each area's strings be found next to each other; add a namespace in both languages
 * and list it here.
 */
import { common as enCommon } from './en/common.ts';
import { routes as enRoutes } from './en/routes.ts';
import { validation as enValidation } from './en/validation.ts';
import { common as frCommon } from './fr/common.ts';
import { routes as frRoutes } from './fr/routes.ts';
import { validation as frValidation } from './fr/validation.ts';
import type { Language } from './languages.ts';
import type { Messages } from './messages.ts';

export const en = {
  common: enCommon,
  routes: enRoutes,
  validation: enValidation,
} as const;

export type Namespace = keyof typeof en;

/** French is checked against English's shape key by key (`Messages`), and here namespace by namespace. */
const fr: { readonly [N in Namespace]: Messages<(typeof en)[N]> } = {
  common: frCommon,
  routes: frRoutes,
  validation: frValidation,
};

export const CATALOG: Record<Language, { readonly [N in Namespace]: Messages<(typeof en)[N]> }> = { en, fr };

export const NAMESPACES = Object.keys(en) as Namespace[];
