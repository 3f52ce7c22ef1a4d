import { describe, expect, it } from 'vitest';
import { findLink, parseDesktopArgs } from './args.ts';

describe('the desktop command line', () => {
  it('starts on the account, with the default data folder and the window, when nothing is given', () => {
    expect(parseDesktopArgs([])).toEqual({
      demo: false,
      scenario: 'demo',
      timeScale: 1,
      dataDir: null,
      adminPort: null,
      hidden: false,
      link: null,
    });
  });

  it("reads the app's options among Electron's own arguments and Chromium switches", () => {
    const args = parseDesktopArgs(
      [
        '.',
        '--no-sandbox',
        '--demo',
        '--scenario=e2e',
        '--time-scale',
        '20',
        '--data-dir',
        'data',
        '--admin-port',
        '0',
      ],
      '/home/op',
    );
    expect(args).toMatchObject({
      demo: true,
      scenario: 'e2e',
      timeScale: 20,
      dataDir: '/home/op/data',
      adminPort: 0,
    });
  });

  it('picks out the link the OS launched the app for, wherever it is', () => {
    expect(parseDesktopArgs(['--hidden', 'clever-reaper://wake/app_1']).link).toBe(
      'clever-reaper://wake/app_1',
    );
    expect(findLink(['/opt/Clever Reaper/clever-reaper', '--flag', 'CLEVER-REAPER://open/app_2'])).toBe(
      'CLEVER-REAPER://open/app_2',
    );
    expect(findLink(['.', '--demo'])).toBeNull();
  });

  it('starts hidden in the tray with --hidden (start at login)', () => {
    expect(parseDesktopArgs(['--hidden']).hidden).toBe(true);
  });

  it('refuses demo options without --demo, and says which', () => {
    expect(() => parseDesktopArgs(['--scenario', 'e2e'])).toThrow('--scenario: only with --demo');
    expect(() => parseDesktopArgs(['--time-scale', '5'])).toThrow('--time-scale: only with --demo');
  });

  it('refuses values it cannot use, naming the option', () => {
    expect(() => parseDesktopArgs(['--demo', '--scenario', 'nope'])).toThrow(
      /--scenario: 'nope' is not one of/,
    );
    expect(() => parseDesktopArgs(['--demo', '--time-scale', '0'])).toThrow(/--time-scale: '0'/);
    expect(() => parseDesktopArgs(['--admin-port', '70000'])).toThrow(/--admin-port: '70000'/);
    expect(() => parseDesktopArgs(['--admin-port', '-1'])).toThrow(/--admin-port/);
    expect(() => parseDesktopArgs(['--data-dir'])).toThrow('--data-dir: a value is needed');
    expect(() => parseDesktopArgs(['--data-dir', '--demo'])).toThrow('--data-dir: a value is needed');
  });
});
