import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  AUTOSTART_FILE,
  autostartDir,
  autostartEntry,
  desktopExecArg,
  UNSUPPORTED_LOGIN_ITEM,
  XdgAutostart,
} from './login-item.ts';

describe('start at login on Linux (XDG autostart)', () => {
  it('writes an autostart entry that starts the app hidden, and removes it', () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'reaper-autostart-')), 'autostart');
    const item = new XdgAutostart(dir, ['/opt/Clever Reaper/clever-reaper', '--hidden']);
    expect(item.isEnabled()).toBe(false);
    item.setEnabled(true);
    expect(item.isEnabled()).toBe(true);
    const entry = readFileSync(join(dir, AUTOSTART_FILE), 'utf8');
    expect(entry).toContain('[Desktop Entry]');
    expect(entry).toContain('Exec="/opt/Clever Reaper/clever-reaper" --hidden\n');
    item.setEnabled(false);
    expect(item.isEnabled()).toBe(false);
  });

  it('quotes the command as the Desktop Entry Specification asks', () => {
    expect(desktopExecArg('/usr/bin/clever-reaper')).toBe('/usr/bin/clever-reaper');
    expect(desktopExecArg('/home/op/Apps/Clever Reaper.AppImage')).toBe(
      '"/home/op/Apps/Clever Reaper.AppImage"',
    );
    expect(desktopExecArg('/a/"b"/$c/`d`/\\e')).toBe('"/a/\\"b\\"/\\$c/\\`d\\`/\\\\e"');
    expect(desktopExecArg('/a/100%')).toBe('"/a/100%%"');
    expect(autostartEntry(['x'])).toMatch(/^Type=Application$/m);
  });

  it('lives in $XDG_CONFIG_HOME/autostart, else ~/.config/autostart', () => {
    expect(autostartDir({ XDG_CONFIG_HOME: '/cfg' }, '/home/op')).toBe('/cfg/autostart');
    expect(autostartDir({}, '/home/op')).toBe('/home/op/.config/autostart');
  });

  it('is not offered from a checkout, and says why if asked', () => {
    expect(UNSUPPORTED_LOGIN_ITEM.supported).toBe(false);
    expect(() => UNSUPPORTED_LOGIN_ITEM.setEnabled(true)).toThrow(/only possible for the installed app/);
  });
});
