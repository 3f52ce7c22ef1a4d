import { chmodSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
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

describe('a JSON file of routes and settings that is not the shape written', () => {
  it('is set aside whole with the reason, like a file that does not parse', () => {
    for (const [content, reason] of [
      ['', /empty/],
      ['[]', /not an object/],
      ['{"routes": {"a": 1}}', /routes is not a list/],
      ['{"settings": []}', /settings is not an object/],
    ] as const) {
      const dir = mkdtempSync(join(tmpdir(), 'reaper-json-'));
      const file = join(dir, 'config.json');
      writeFileSync(file, content);
      const backend = new JsonFileBackend(file);
      expect(backend.damage?.file).toBe(backend.setAside);
      expect(backend.damage?.reason).toMatch(reason);
      expect(readFileSync(backend.setAside!, 'utf8')).toBe(content);
      expect(statSync(backend.setAside!).mode & 0o777).toBe(0o600);
    }
  });

  it('puts a readable file written with a wider mode back to owner-only', () => {
    const dir = mkdtempSync(join(tmpdir(), 'reaper-json-'));
    const file = join(dir, 'config.json');
    writeFileSync(file, '{"routes": []}', { mode: 0o644 });
    chmodSync(file, 0o644);
    const backend = new JsonFileBackend(file);
    expect(backend.damage).toBeNull();
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });
});
