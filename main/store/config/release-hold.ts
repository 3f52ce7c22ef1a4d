/**
 * The policy that holds releases: while routes may be missing (a route, a rule or the release delay
 * that does not validate, or a settings file set aside at open), the engine releases no app: an app
 * whose route was lost is held, not let go, until the operator restores the file, fixes or deletes
 * what could not be read, or confirms by saving routes or settings again.
 */
import type { Settings } from '../../../shared/settings.ts';

/** What the policy looks at: what could not be read of each subject. */
export interface UnreadState {
  /** A settings file set aside at open, not confirmed or restored since. */
  setAside: boolean;
  unreadRoutes: number;
  unreadRules: number;
  /** The fields of the settings that could not be read. */
  unreadSettings: { has(field: string): boolean };
}

/** True while routes may be missing: no app is released then. */
export function releaseHeld(state: UnreadState): boolean {
  return (
    state.setAside ||
    state.unreadRoutes > 0 ||
    state.unreadRules > 0 ||
    state.unreadSettings.has('releaseDelayMs')
  );
}

/**
 * The settings as the engine sees them: no release ever due while held (the engine leaves a release
 * pending while its delay has not passed; an infinite one never does).
 */
export function settingsForEngine(settings: Settings, held: boolean): Settings {
  return held ? { ...settings, releaseDelayMs: Number.POSITIVE_INFINITY } : settings;
}
