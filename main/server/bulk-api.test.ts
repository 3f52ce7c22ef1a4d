/** POST /api/apps/_bulk through real HTTP, on the e2e demo: one outcome per app, nothing half-applied. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppView } from '../../shared/api.ts';
import { readRefusal } from '../../shared/bulk-refusals.ts';
import type { HistoryEntry } from '../../shared/domain.ts';
import { HOUR, SECOND } from '../../shared/durations.ts';
import { ManualClock } from '../engine/clocks.ts';
import { MONDAY_9AM } from '../testing/engine-harness.ts';
import { TEST_SERVER } from '../testing/test-server.ts';
import { type Headless, startHeadless } from './headless.ts';

const running: Headless[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

async function serve() {
  const dataDir = mkdtempSync(join(tmpdir(), 'reaper-bulk-'));
  const staticDir = mkdtempSync(join(tmpdir(), 'reaper-static-'));
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>Clever Reaper</title>');
  const clock = new ManualClock(MONDAY_9AM);
  const server = await startHeadless({
    ...TEST_SERVER,
    demo: true,
    scenario: 'e2e',
    dataDir,
    staticDir,
    demoClock: clock,
  });
  running.push(server);
  await clock.advance(5 * SECOND);
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${server.token.token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  };
  const apps = async (): Promise<Record<string, AppView>> =>
    Object.fromEntries((await call('GET', '/api/apps')).body.map((a: AppView) => [a.name, a]));
  const historyCount = async () =>
    ((await call('GET', '/api/history?limit=500')).body.entries as HistoryEntry[]).length;
  return { clock, call, apps, historyCount };
}

describe('POST /api/apps/_bulk', () => {
  it('resets several apps at once, one outcome each, with the history saying who acted', async () => {
    const { call, apps } = await serve();
    const before = await apps();
    const ids = [before['partner-portal']!.appId, before['idle-review']!.appId];
    const res = await call('POST', '/api/apps/_bulk', { action: 'reset', appIds: ids });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ action: 'reset', succeeded: 2, refused: 0 });
    expect(res.body.outcomes.map((o: { appId: string; ok: boolean }) => [o.appId, o.ok])).toEqual([
      [ids[0], true],
      [ids[1], true],
    ]);
    expect(res.body.outcomes[0].app).toMatchObject({ appId: ids[0] });
    for (const appId of ids) {
      const history = await call('GET', `/api/apps/${appId}/history?limit=5`);
      expect(history.body.some((h: HistoryEntry) => h.reason === 'reset from the console')).toBe(true);
    }
  });

  it('goes on past an app that refuses, and says why for that app', async () => {
    const { call, apps } = await serve();
    const before = await apps();
    const error = before['partner-portal']!;
    const asleep = before['api-sandbox']!;
    expect(error.state).toBe('Error');
    const res = await call('POST', '/api/apps/_bulk', {
      action: 'wake',
      appIds: [error.appId, asleep.appId],
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ succeeded: 1, refused: 1 });
    expect(res.body.outcomes[0]).toMatchObject({ appId: error.appId, ok: false });
    expect(res.body.outcomes[0].reason).toMatch(/in Error/);
    // The dashboard reads the refusal back to say it in its language (shared/bulk-refusals.ts).
    expect(readRefusal(res.body.outcomes[0].reason)).toEqual({
      key: 'inError',
      parts: { cause: "unexpected clever cloud state 'MODERATED'" },
    });
    expect(res.body.outcomes[1]).toMatchObject({ appId: asleep.appId, ok: true });
    expect(res.body.outcomes[1].app).toMatchObject({ lastRequestSource: 'admin-api' });
    expect((await apps())['api-sandbox']!.state).not.toBe('Down');
  });

  it('keeps apps awake until a time, and disables the reaper for others', async () => {
    const { call, apps, clock } = await serve();
    const before = await apps();
    const until = clock.now() + 2 * HOUR;
    const kept = await call('POST', '/api/apps/_bulk', {
      action: 'keepAwake',
      appIds: [before['shop-staging']!.appId, before['qa-env']!.appId],
      until,
    });
    expect(kept.status).toBe(200);
    expect(kept.body.outcomes.map((o: { app: AppView }) => o.app.keepAwakeUntil)).toEqual([until, until]);

    const released = await call('POST', '/api/apps/_bulk', {
      action: 'release',
      appIds: [before['nightly-batch']!.appId, before['docs-preview']!.appId],
    });
    expect(released.status).toBe(200);
    expect(released.body).toMatchObject({ succeeded: 2, refused: 0 });
    expect(released.body.outcomes.map((o: { app: unknown }) => o.app)).toEqual([null, null]);
    const after = await apps();
    expect(after['nightly-batch']).toBeUndefined();
    expect(after['docs-preview']).toBeUndefined();
  });

  it('refuses a bad request with 400 and does nothing: not even to the valid apps in it', async () => {
    const { call, apps, historyCount } = await serve();
    const before = await apps();
    const error = before['partner-portal']!.appId;
    const up = before['shop-staging']!.appId;
    const entries = await historyCount();
    const bad: [unknown, RegExp][] = [
      [{ action: 'explode', appIds: [error] }, /^Action: “explode” is not one of these/],
      [{ action: 'reset', appIds: [] }, /^Apps: give at least one\./],
      [{ action: 'reset', appIds: [error, up, error] }, /^Apps: “app_.*” is listed twice/],
      [
        { action: 'reset', appIds: [error, 'app_not-managed'] },
        /^Apps: the reaper manages no app app_not-managed/,
      ],
      [{ action: 'reset', appIds: [error, 'not an id'] }, /^Apps: “not an id” is not an application id/],
      [{ action: 'keepAwake', appIds: [up] }, /^Keep awake until: say until when/],
      [
        { action: 'keepAwake', appIds: [up], until: Date.UTC(2001, 0, 1) },
        /^Keep awake until: this time is already past/,
      ],
      [
        { action: 'reset', appIds: [error], until: null },
        /^Keep awake until: only when the action is “keepAwake”/,
      ],
      [{ action: 'reset', appIds: [error], extra: 1 }, /extra/],
    ];
    for (const [body, message] of bad) {
      const res = await call('POST', '/api/apps/_bulk', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('invalid-input');
      expect(res.body.error.message).toMatch(message);
    }
    const after = await apps();
    expect(after['partner-portal']!.state).toBe('Error');
    expect(after['shop-staging']!.keepAwakeUntil).toBeNull();
    expect(await historyCount()).toBe(entries);
  });

  it('is a POST: GET on the path is the app detail of a malformed id', async () => {
    const { call } = await serve();
    expect((await call('GET', '/api/apps/_bulk')).status).toBe(400);
    expect((await call('DELETE', '/api/apps/_bulk')).status).toBe(405);
  });
});
