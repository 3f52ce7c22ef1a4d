import { describe, expect, it } from 'vitest';
import { DEFAULT_PORT, parseCli } from './cli.ts';
import { bearerToken, sameToken } from './token.ts';

describe('the serve command line', () => {
  it('defaults to loopback, the default port, the real Clever Cloud and the user data directory', () => {
    expect(parseCli([], { REAPER_HOME: '/tmp/reaper-data' })).toEqual({
      demo: false,
      scenario: 'demo',
      host: '127.0.0.1',
      port: DEFAULT_PORT,
      dataDir: '/tmp/reaper-data',
      apiUrl: null,
      timeScale: 1,
      timeOrigin: null,
      allowedHosts: [],
      caps: {},
      onePort: false,
    });
  });

  it('reads every flag', () => {
    expect(
      parseCli(['--demo', '--scenario', 'e2e', '--time-scale', '20', '--port', '0', '--data-dir', '/tmp/x']),
    ).toMatchObject({ demo: true, scenario: 'e2e', timeScale: 20, port: 0, dataDir: '/tmp/x' });
    expect(parseCli(['--api-url', 'http://127.0.0.1:9000/v2'], {})).toMatchObject({
      apiUrl: 'http://127.0.0.1:9000/v2',
    });
  });

  it('names the flag that is wrong', () => {
    expect(() => parseCli(['--port', 'eighty'])).toThrow(/^--port: /);
    expect(() => parseCli(['--time-origin', '1767600000000'])).toThrow(
      '--time-origin: only with --time-scale',
    );
    const sim = ['--api-url', 'http://127.0.0.1:7499'];
    expect(parseCli(['--time-scale', '10', '--time-origin', '1767600000000', ...sim])).toMatchObject({
      timeScale: 10,
      timeOrigin: 1767600000000,
    });
    // The real Clever Cloud runs in real time: a scaled clock only with the demo or a simulator.
    expect(() => parseCli(['--time-scale', '10', '--time-origin', '1767600000000'])).toThrow(
      /^--time-scale: only with --demo, or with --api-url/,
    );
    expect(parseCli(['--demo', '--time-scale', '10'])).toMatchObject({ timeScale: 10 });
    expect(() => parseCli(['--demo', '--scenario', 'nope'])).toThrow(/^--scenario: 'nope' is not one of/);
    expect(() => parseCli(['--api-url', 'ftp://x'])).toThrow(/^--api-url: /);
    expect(() => parseCli(['--nope'])).toThrow();
  });
});

describe('the datastore of the command line', () => {
  it('is SQLite unless --database, DATABASE_URL or POSTGRESQL_ADDON_URI names a PostgreSQL database', () => {
    expect(parseCli([], {})).not.toHaveProperty('database');
    expect(parseCli(['--database', 'postgres://r@db.test/reaper'], {})).toMatchObject({
      database: 'postgres://r@db.test/reaper',
    });
    expect(parseCli([], { POSTGRESQL_ADDON_URI: 'postgresql://u:p@pg.test:5432/b' })).toMatchObject({
      database: 'postgresql://u:p@pg.test:5432/b',
    });
    expect(() => parseCli(['--database', 'sqlite:///tmp/x'], {})).toThrow(/^--database: not a postgres/);
  });

  it('takes --lease-seconds in team mode only', () => {
    const db = ['--database', 'postgres://r@db.test/reaper'];
    expect(parseCli(db, {})).not.toHaveProperty('leaseMs');
    expect(parseCli([...db, '--lease-seconds', '2.5'], {})).toMatchObject({ leaseMs: 2500 });
    expect(() => parseCli([...db, '--lease-seconds', '0'], {})).toThrow(/^--lease-seconds:/);
    expect(() => parseCli(['--lease-seconds', '5'], {})).toThrow(/only with --database/);
  });
});

describe('the admin token', () => {
  it('is read from a Bearer header and compared whatever the lengths', () => {
    expect(bearerToken('Bearer abc.def')).toBe('abc.def');
    expect(bearerToken('bearer   abc ')).toBe('abc');
    expect(bearerToken('Basic abc')).toBeNull();
    expect(bearerToken(undefined)).toBeNull();
    expect(sameToken('abc', 'abc')).toBe(true);
    expect(sameToken('abc', 'abcd')).toBe(false);
  });
});
