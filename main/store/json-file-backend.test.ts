import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { JsonFileBackend } from './json-file-backend.ts';

describe('the JSON file of routes and settings', () => {
  it('writes each change whole, readable by its owner only, and reads it back', () => {
    const dir = mkdtempSync(join(tmpdir(), 'reaper-json-'));
    const file = join(dir, 'config.json');
    const backend = new JsonFileBackend(file);
    expect(backend.get('routes')).toBeUndefined();
    backend.set('routes', [{ id: 'route_1' }]);
    backend.set('settings', { killSwitch: true });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['config.json']);
    const again = new JsonFileBackend(file);
    expect(again.get('routes')).toEqual([{ id: 'route_1' }]);
    expect(again.get('settings')).toEqual({ killSwitch: true });
  });

  it('sets a file it cannot read aside instead of overwriting it in silence', () => {
    const dir = mkdtempSync(join(tmpdir(), 'reaper-json-'));
    const file = join(dir, 'config.json');
    writeFileSync(file, '{"routes": [');
    const backend = new JsonFileBackend(file);
    expect(backend.setAside).toMatch(/config\.json\.corrupt-\d+$/);
    expect(readFileSync(backend.setAside!, 'utf8')).toBe('{"routes": [');
    expect(backend.get('routes')).toBeUndefined();
  });
});
