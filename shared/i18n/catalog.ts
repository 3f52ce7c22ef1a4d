/**
 * Every catalogue, by language and namespace. A namespace per area of the interface keeps the files
 * small and lets each area's strings be found next to each other; add a namespace in both languages
 * and list it here.
 */
import { apps as enApps } from './en/apps.ts';
import { common as enCommon } from './en/common.ts';
import { apps as frApps } from './fr/apps.ts';
import { common as frCommon } from './fr/common.ts';
import type { Language } from './languages.ts';
import type { Messages } from './messages.ts';

export const en = {
  apps: enApps,
  common: enCommon,
} as const;

export type Namespace = keyof typeof en;

/** French is checked against English's shape key by key (`Messages`), and here namespace by namespace. */
const fr: { readonly [N in Namespace]: Messages<(typeof en)[N]> } = {
  apps: frApps,
  common: frCommon,
};

export const CATALOG: Record<Language, { readonly [N in Namespace]: Messages<(typeof en)[N]> }> = { en, fr };

export const NAMESPACES = Object.keys(en) as Namespace[];
