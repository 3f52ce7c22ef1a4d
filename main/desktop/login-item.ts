/**
 * Start at login. The OS is the source of truth (the operator can also change it in the system's
 * settings): macOS and Windows through Electron's login item settings, Linux through an XDG
 * autostart entry (~/.config/autostart/clever-reaper.desktop), which Electron does not manage. The
 * app starts with --hidden then: in the tray, without opening the window.
 *
 * Only an installed app can register itself: a checkout's `electron .` would register the bare
 * Electron binary.
 */
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export interface LoginItem {
  /** Whether this platform and this build can start the app at login. */
  readonly supported: boolean;
  isEnabled(): boolean;
  setEnabled(on: boolean): void;
}

export const AUTOSTART_FILE = 'clever-reaper.desktop';

/** A desktop entry's Exec argument, quoted as the Desktop Entry Specification asks. */
export function desktopExecArg(arg: string): string {
  if (!/[\s"'\\`$;&|<>()*?#~=%]/.test(arg)) return arg;
  return `"${arg.replace(/[\\"`$]/g, (c) => `\\${c}`).replaceAll('%', '%%')}"`;
}

export function autostartEntry(command: readonly string[]): string {
  return [
    '[Desktop Entry]',
    'Type=Application',
    'Name=Clever Reaper',
    'Comment=Puts idle Clever Cloud apps to sleep, wakes them on demand',
    `Exec=${command.map(desktopExecArg).join(' ')}`,
    'Icon=clever-reaper',
    'Terminal=false',
    'X-GNOME-Autostart-enabled=true',
    '',
  ].join('\n');
}

/** The XDG autostart folder: $XDG_CONFIG_HOME/autostart, else ~/.config/autostart. */
export function autostartDir(env: NodeJS.ProcessEnv = process.env, home: string = homedir()): string {
  return join(env.XDG_CONFIG_HOME || join(home, '.config'), 'autostart');
}

/** Linux: an autostart entry that runs `command` (the AppImage, or the installed binary). */
export class XdgAutostart implements LoginItem {
  readonly supported = true;
  private readonly file: string;
  private readonly command: readonly string[];

  constructor(dir: string, command: readonly string[]) {
    this.file = join(dir, AUTOSTART_FILE);
    this.command = command;
  }

  isEnabled(): boolean {
    return existsSync(this.file);
  }

  setEnabled(on: boolean): void {
    if (!on) {
      rmSync(this.file, { force: true });
      return;
    }
    mkdirSync(join(this.file, '..'), { recursive: true });
    writeFileSync(this.file, autostartEntry(this.command), { mode: 0o644 });
  }
}

export const UNSUPPORTED_LOGIN_ITEM: LoginItem = {
  supported: false,
  isEnabled: () => false,
  setEnabled: () => {
    throw new Error('starting at login is only possible for the installed app');
  },
};
