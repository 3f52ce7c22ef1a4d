import { describe, expect, it } from 'vitest';
import { InputError } from '../../shared/errors.ts';
import { ConfigStore, MemoryBackend } from './config-store.ts';

const APP = 'app_0a1b2c3d';
const OWNER = 'orga_0a1b2c3d';

describe('the config store on what it cannot read', () => {
  it('names the fields of a settings change that does not hold together, structured', () => {
    const config = new ConfigStore(new MemoryBackend());
    try {
      config.updateSettings({ fastIntervalMs: 120_000, intervalMs: 60_000, restartAfterMs: 900_000 });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(InputError);
      expect((error as InputError).problems).toEqual([
        {
          field: 'fastIntervalMs',
          code: 'fastOverInterval',
          params: { value: 120_000, other: 60_000, otherField: 'intervalMs' },
          message:
            'Fast interval: 120 seconds is longer than the job interval (60 seconds); it cannot exceed it.',
        },
        {
          field: 'restartAfterMs',
          code: 'restartNotBeforeFail',
          params: { value: 900_000, other: 900_000, otherField: 'failTimeoutMs' },
          message:
            'Restart a vanished start after: 900 seconds must be shorter than the fail timeout (15 minutes).',
        },
      ]);
    }
  });

  it('keeps a stored route that does not validate through every write, and holds releases meanwhile', () => {
    const backend = new MemoryBackend();
    const bad = { id: 'route_bad', appId: APP, ownerId: OWNER, gracePeriodMs: 10, color: 'red' };
    backend.set('routes', [bad]);
    const config = new ConfigStore(backend);
    expect(config.routes()).toEqual([]);
    expect(config.problems()[0]).toMatch(/route_bad \(app_0a1b2c3d\): .*the least is 1 minute/);
    expect(config.releaseHeld()).toBe(true);
    expect(config.engineConfig().settings().releaseDelayMs).toBe(Number.POSITIVE_INFINITY);
    expect(config.settings().releaseDelayMs).toBe(5 * 60_000);
    const good = config.createRoute({ appId: 'app_other', ownerId: OWNER });
    expect(backend.get('routes')).toEqual([good, bad]);
    config.deleteRoute('route_bad');
    expect(backend.get('routes')).toEqual([good]);
    expect(config.problems()).toEqual([]);
    expect(config.releaseHeld()).toBe(false);
    expect(config.engineConfig().settings()).toEqual(config.settings());
  });

  it('holds releases while the release delay itself cannot be read', () => {
    const backend = new MemoryBackend();
    backend.set('settings', { releaseDelayMs: 'soon' });
    const config = new ConfigStore(backend);
    expect(config.releaseHeld()).toBe(true);
    config.updateSettings({ releaseDelayMs: 60_000 });
    expect(config.releaseHeld()).toBe(false);
    expect(backend.get('settings')).toMatchObject({ releaseDelayMs: 60_000 });
  });
});
