/** The settings: validated whole, what could not be read kept in the file until a change sets it. */
import { isDeepStrictEqual } from 'node:util';
import { InputError, parseInput } from '../../../shared/errors.ts';
import {
  type Settings,
  type SettingsUpdate,
  settingsProblems,
  settingsUpdateSchema,
} from '../../../shared/settings.ts';
import { actingNow } from '../../engine/acting.ts';
import { readSettings, type UnreadSetting, unreadSettingsProblem } from '../config-read.ts';
import type { BookContext } from './book.ts';

export class SettingsBook {
  private readonly ctx: BookContext;
  private settings: Settings;
  private unread: Map<string, UnreadSetting>;

  constructor(ctx: BookContext) {
    this.ctx = ctx;
    const { settings, unread } = readSettings(ctx.backend.get('settings'));
    this.settings = settings;
    this.unread = new Map(unread.map((u) => [u.field, u]));
  }

  /** Take the stored value as it is now; whether anything changed. */
  adopt(value: unknown): boolean {
    const { settings, unread } = readSettings(value);
    const unreadSettings = new Map(unread.map((u) => [u.field, u]));
    const changed = !isDeepStrictEqual([settings, unreadSettings], [this.settings, this.unread]);
    this.settings = settings;
    this.unread = unreadSettings;
    return changed;
  }

  /** The fields that could not be read. */
  get unreadFields(): ReadonlyMap<string, UnreadSetting> {
    return this.unread;
  }

  problem(): string | null {
    return unreadSettingsProblem([...this.unread.values()]);
  }

  current(): Settings {
    return this.settings;
  }

  update(input: SettingsUpdate): Settings {
    const patch = parseInput(settingsUpdateSchema, input);
    const next: Settings = { ...this.settings, ...patch };
    // Who turned the kill switch on, and when (the call's person: main/engine/acting.ts).
    if (next.killSwitch && !this.settings.killSwitch)
      next.killSwitchOn = { at: this.ctx.now(), by: actingNow() };
    if (!next.killSwitch) next.killSwitchOn = null;
    const problems = settingsProblems(next);
    if (problems.length) throw new InputError(problems);
    // What could not be read stays in the file, unless this change sets it (settings that were not
    // even an object are replaced whole: the backends set such a file aside, so only a Map gets here).
    const unread = new Map(
      [...this.unread].filter(([field]) => field !== '' && !Object.hasOwn(patch, field)),
    );
    this.ctx.backend.set('settings', {
      ...next,
      ...Object.fromEntries([...unread.values()].map((u) => [u.field, u.value])),
    });
    this.settings = next;
    this.unread = unread;
    this.ctx.confirmed();
    this.ctx.emit({ kind: 'settings' });
    return next;
  }
}
