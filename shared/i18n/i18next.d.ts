/** Typed keys: `t('apps:row.wake')` with a key that does not exist in English fails typecheck. */
import 'i18next';
import type { en } from './catalog.ts';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'common';
    resources: typeof en;
    returnNull: false;
  }
}
