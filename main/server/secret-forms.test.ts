/**
 * Secrets quoted by Clever Cloud in any form (a prefix, lowercase, uppercase, percent-encoded, base64,
 * base64 of `token:secret`...) reach none of what the reaper keeps or shows: the history rows, the
 * log, the CSV and JSON exports, and the raw bytes of the SQLite file and its WAL.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLEVER_TOOLS_CONSUMER } from '../clever/credentials.ts';
import { systemClock } from '../engine/clocks.ts';
import { SimulatedCloud } from '../simulator/model.ts';
import { type SimulatorServer, startSimulatorServer } from '../simulator/server.ts';
import type { SqliteStore } from '../store/sqlite/sqlite-store.ts';
import { leakedForms, piecesLeft } from '../testing/secret-forms.ts';
import { TEST_SERVER } from '../testing/test-server.ts';
import { type Headless, startHeadless } from './headless.ts';

// Characters that percent-encoding and base64 change, so each form differs from the others.
const TOKEN = 'Planted/Token+5bd1f0e2c7a94d3b';
const SECRET = 'Planted/Secret+8e61a2f3b9c04d7e';
const ADMIN = 'admin-token-for-the-secret-form-tests';
const FORMS = leakedForms(TOKEN, SECRET, CLEVER_TOOLS_CONSUMER.secret);

let sim: SimulatorServer;
let server: Headless;
let dataDir: string;
const logs: string[] = [];
const appIds: string[] = [];

beforeAll(async () => {
  const cloud = new SimulatedCloud(systemClock, {
    listingDelayMs: 0,
    deployDurationMs: 300,
    stopDurationMs: 100,
  });
  sim = await startSimulatorServer({
    cloud,
    credentials: {
      oauth: {
        consumerKey: CLEVER_TOOLS_CONSUMER.key,
        consumerSecret: CLEVER_TOOLS_CONSUMER.secret,
        token: TOKEN,
        secret: SECRET,
      },
    },
  });
  const orgId = cloud.addOrganisation('Acme').id;
  for (let i = 0; i < FORMS.length; i++) {
    appIds.push(cloud.addApp(orgId, `app-${i}`, { state: 'SHOULD_BE_DOWN' }).id);
  }
  dataDir = mkdtempSync(join(tmpdir(), 'reaper-secret-forms-'));
  server = await startHeadless({
    ...TEST_SERVER,
    dataDir,
    apiUrl: sim.url,
    env: { CLEVER_TOKEN: TOKEN, CLEVER_SECRET: SECRET, REAPER_ADMIN_TOKEN: ADMIN },
    log: (level, message) => logs.push(`[${level}] ${message}`),
  });
  for (const appId of appIds) {
    const created = await call('/api/routes', {
      method: 'POST',
      body: JSON.stringify({ appId, ownerId: orgId }),
    });
    expect(created.status).toBe(201);
  }
});
afterAll(async () => {
  await server?.close();
  await sim?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function call(path: string, init: RequestInit = {}) {
  return fetch(`${server.url}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
  });
}

/** The raw bytes of the datastore and its WAL, as text (a secret is stored as UTF-8 text). */
function datastoreBytes(): string {
  return ['', '-wal', '-shm']
    .map((suffix) => join(dataDir, `reaper.sqlite${suffix}`))
    .filter((file) => existsSync(file))
    .map((file) => readFileSync(file).toString('latin1'))
    .join('\n');
}

describe('a Clever Cloud error quoting the credentials in any form', () => {
  it('is kept nowhere with any piece of 8 characters of any form of a secret', async () => {
    // Each app's start is refused once with an error quoting one form.
    FORMS.forEach((form, i) => {
      sim.faults.push({
        kind: 'status',
        status: 400,
        count: 1,
        match: 'POST',
        id: appIds[i]!,
        message: `refused for ${form} (bad credentials)`,
      });
    });
    for (const appId of appIds) {
      expect((await call(`/api/apps/${appId}/_wake`, { method: 'POST' })).status).toBeLessThan(300);
    }
    const db = (server.service.current!.store as SqliteStore).db;
    const failed = () =>
      db.prepare("SELECT * FROM history WHERE kind = 'call-failed'").all() as { reason: string }[];
    for (let i = 0; i < 200 && failed().length < FORMS.length; i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
    // Every form was met and cleaned: one failed start per app, its reason redacted.
    const reasons = failed().map((r) => r.reason);
    expect(reasons).toHaveLength(FORMS.length);
    expect(
      reasons.every((r) => /^start failed: Clever Cloud answered 400 .*refused for \[redacted\]/.test(r)),
    ).toBe(true);

    const history = JSON.stringify(db.prepare('SELECT * FROM history').all());
    const apps = JSON.stringify(db.prepare('SELECT * FROM app_state').all());
    const csv = await (await call('/api/history?format=csv')).text();
    const json = await (await call('/api/history?format=json')).text();
    expect(csv).toContain('[redacted]');
    expect(json).toContain('[redacted]');
    // Each error was logged, cleaned; the WAL is there to be searched.
    expect(logs.filter((l) => l.includes('refused for [redacted]')).length).toBeGreaterThanOrEqual(
      FORMS.length,
    );
    expect(existsSync(join(dataDir, 'reaper.sqlite-wal'))).toBe(true);
    const whileRunning = datastoreBytes();
    expect(whileRunning).toContain('[redacted]');
    await server.close();
    const afterClose = datastoreBytes();
    for (const [where, text] of Object.entries({
      history,
      apps,
      csv,
      json,
      log: logs.join('\n'),
      'sqlite + WAL while running': whileRunning,
      'sqlite + WAL after close': afterClose,
    })) {
      expect(piecesLeft(text, FORMS), where).toEqual([]);
    }
  });
});
