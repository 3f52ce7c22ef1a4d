/**
 * A settings file (config.json) that cannot be read, in whole or in part, on the headless server on
 * an account: said loudly (status problem, hence the dashboard's banner, and the log), nothing that
 * was stored is erased, and no app whose route was lost is released until the operator acts.
 */

import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppView, ReaperStatus } from '../../shared/api.ts';
import { MINUTE, SECOND } from '../../shared/durations.ts';
import type { Settings } from '../../shared/settings.ts';
import { ManualClock } from '../engine/clocks.ts';
import { InProcessCleverPort } from '../simulator/in-process-port.ts';
import { SimulatedCloud } from '../simulator/model.ts';
import { MONDAY_9AM } from '../testing/engine-harness.ts';
import { TEST_SERVER } from '../testing/test-server.ts';
import { type Headless, startHeadless } from './headless.ts';

const running: Headless[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

function world() {
  const clock = new ManualClock(MONDAY_9AM);
  const cloud = new SimulatedCloud(clock);
  const org = cloud.addOrganisation('Acme');
  const app = cloud.addApp(org.id, 'staging');
  const logged: string[] = [];
  async function serve(dataDir: string) {
    const server = await startHeadless({
      ...TEST_SERVER,
      dataDir,
      clever: new InProcessCleverPort(cloud),
      accountClock: clock,
      log: (level, message) => logged.push(`[${level}] ${message}`),
    });
    running.push(server);
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${server.url}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${server.token.token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: res.status, body: await res.json() };
    };
    const problems = async () => ((await call('GET', '/api/status')).body as ReaperStatus).problems;
    const history = async () =>
      ((await call('GET', `/api/apps/${app.id}/history`)).body as { kind: string }[]).map((h) => h.kind);
    return { server, call, problems, history };
  }
  return { clock, org, app, serve, logged };
}

describe('a settings file that cannot be read at all', () => {
  for (const [what, content] of [
    ['garbage', '{"routes": [ {"id": '],
    ['empty', ''],
    ['a list', '[]'],
  ] as const) {
    it(`(${what}) is said loudly and no app is released until the operator confirms`, async () => {
      const { clock, org, app, serve, logged } = world();
      const dataDir = mkdtempSync(join(tmpdir(), 'reaper-damaged-'));
      const first = await serve(dataDir);
      expect((await first.call('POST', '/api/routes', { appId: app.id, ownerId: org.id })).status).toBe(201);
      await clock.advance(10 * SECOND);
      await first.server.close();
      writeFileSync(join(dataDir, 'config.json'), content);

      const second = await serve(dataDir);
      const kept = readdirSync(dataDir).find((f) => f.startsWith('config.json.corrupt-'));
      expect(kept).toBeDefined();
      expect(readFileSync(join(dataDir, kept!), 'utf8')).toBe(content);
      const [problem] = await second.problems();
      expect(problem).toMatch(/The settings file could not be read/);
      expect(problem).toContain(kept);
      expect(problem).toMatch(/No app is released until/);
      expect(logged.some((l) => l.startsWith('[error] The settings file could not be read'))).toBe(true);

      // Well past the release delay (5 minutes): the app whose route was lost is held, not let go.
      await clock.advance(12 * MINUTE);
      expect(await second.history()).not.toContain('release');
      expect(((await second.call('GET', '/api/apps')).body as AppView[]).map((a) => a.appId)).toEqual([
        app.id,
      ]);

      // The operator confirms by saving the settings: the banner goes, the release follows.
      expect((await second.call('PATCH', '/api/settings', { killSwitch: false })).status).toBe(200);
      expect(await second.problems()).toEqual([]);
      await clock.advance(30 * SECOND);
      expect(await second.history()).toContain('release');
    });
  }
});

describe('a settings file read in part', () => {
  it('keeps a route that does not validate, shows it with its reason, never erases it, holds releases', async () => {
    const { clock, org, app, serve } = world();
    const dataDir = mkdtempSync(join(tmpdir(), 'reaper-invalid-'));
    const first = await serve(dataDir);
    expect((await first.call('POST', '/api/routes', { appId: app.id, ownerId: org.id })).status).toBe(201);
    await clock.advance(10 * SECOND);
    await first.server.close();
    const file = join(dataDir, 'config.json');
    const stored = JSON.parse(readFileSync(file, 'utf8')) as { routes: { id: string }[] };
    const bad = { ...stored.routes[0]!, gracePeriodMs: 1000, color: 'red' };
    writeFileSync(file, JSON.stringify({ ...stored, routes: [bad] }));

    const second = await serve(dataDir);
    const [problem] = await second.problems();
    expect(problem).toContain(bad.id);
    expect(problem).toMatch(/Grace period: .* is too short; the least is 1 minute/);
    expect(problem).toMatch(/color/);
    // An unrelated write keeps it as it was stored.
    expect((await second.call('PATCH', '/api/settings', { dryRun: true })).status).toBe(200);
    const after = JSON.parse(readFileSync(file, 'utf8')) as { routes: unknown[] };
    expect(after.routes).toEqual([bad]);
    await clock.advance(12 * MINUTE);
    expect(await second.history()).not.toContain('release');

    // Deleted through the admin API (the operator's decision): the banner goes.
    expect((await second.call('DELETE', `/api/routes/${bad.id}`)).status).toBe(200);
    expect(await second.problems()).toEqual([]);
    expect((JSON.parse(readFileSync(file, 'utf8')) as { routes: unknown[] }).routes).toEqual([]);
  });

  it('reads an unreadable kill switch or dry-run as on, and keeps the stored value', async () => {
    const { serve } = world();
    const dataDir = mkdtempSync(join(tmpdir(), 'reaper-invalid-'));
    const file = join(dataDir, 'config.json');
    writeFileSync(file, JSON.stringify({ routes: [], settings: { killSwitch: 'yes', dryRun: 1 } }));
    const server = await serve(dataDir);
    const settings = (await server.call('GET', '/api/settings')).body as Settings;
    expect(settings).toMatchObject({ killSwitch: true, dryRun: true });
    const [problem] = await server.problems();
    expect(problem).toMatch(/killSwitch = "yes"/);
    expect(problem).toMatch(/taken as on/);
    expect((await server.call('PATCH', '/api/settings', { intervalMs: 60 * SECOND })).status).toBe(200);
    const stored = JSON.parse(readFileSync(file, 'utf8')) as { settings: Record<string, unknown> };
    expect(stored.settings).toMatchObject({ killSwitch: 'yes', dryRun: 1, intervalMs: 60 * SECOND });
    // Set again by the operator: replaced, the banner goes.
    expect((await server.call('PATCH', '/api/settings', { killSwitch: false, dryRun: false })).status).toBe(
      200,
    );
    expect(await server.problems()).toEqual([]);
    expect((await server.call('GET', '/api/settings')).body).toMatchObject({
      killSwitch: false,
      dryRun: false,
    });
  });
});
