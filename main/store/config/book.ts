/** What each subject's book (routes, rules, settings) is given by the ConfigStore it belongs to. */
import type { KeyValueBackend } from './backends.ts';

export type ConfigChange = { kind: 'routes' } | { kind: 'rules' } | { kind: 'settings' };

export interface BookContext {
  backend: KeyValueBackend;
  now: () => number;
  /** A change was written: announce it. */
  emit(change: ConfigChange): void;
  /** The operator saved routes or settings: a settings file set aside at open is confirmed. */
  confirmed(): void;
}
