/**
 * Rules through the admin API over real HTTP: the headless server on the e2e demo (simulated Clever
 * Cloud, manual clock), GET/POST /api/rules, GET/PATCH/DELETE /api/rules/{id}, POST /api/rules/_preview.
 */

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppView, RulePreviewResult } from '../../shared/api.ts';
import { SECOND } from '../../shared/durations.ts';
import type { Rule } from '../../shared/rules.ts';
import { ManualClock } from '../engine/clocks.ts';
import { MONDAY_9AM } from '../testing/engine-harness.ts';
import { adminCall } from '../testing/test-server.ts';
import { type Headless, startHeadless } from './headless.ts';

interface ErrorBody {
  error: { problems: { field: string; message: string }[] };
}

const running: Headless[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

async function serve() {
  const dataDir = mkdtempSync(join(tmpdir(), 'reaper-rules-'));
  const staticDir = mkdtempSync(join(tmpdir(), 'reaper-static-'));
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>Clever Reaper</title>');
  const clock = new ManualClock(MONDAY_9AM);
  const server = await startHeadless({
    demo: true,
    scenario: 'e2e',
    host: '127.0.0.1',
    port: 0,
    dataDir,
    apiUrl: null,
    timeScale: 1,
    staticDir,
    env: {},
    demoClock: clock,
  });
  running.push(server);
  await clock.advance(5 * SECOND);
  const call = <T = unknown>(method: string, path: string, body?: unknown) =>
    adminCall<T>(server, method, path, body);
  return { call, clock };
}

describe('the rules API', () => {
  it('creates, reads, changes, moves and deletes rules, in their order of precedence', async () => {
    const { call } = await serve();
    const a = await call<Rule>('POST', '/api/rules', { pattern: '*-preview', hosts: ['{name}.review.test'] });
    expect(a.status).toBe(201);
    expect(a.body).toMatchObject({
      pattern: '*-preview',
      ownerId: null,
      enabled: true,
      dryRun: false,
      group: '',
    });
    const b = await call<Rule>('POST', '/api/rules', { pattern: 'qa-*', label: 'QA', position: 0 });
    expect((await call<Rule[]>('GET', '/api/rules')).body.map((r) => r.id)).toEqual([b.body.id, a.body.id]);
    expect((await call<Rule>('GET', `/api/rules/${a.body.id}`)).body.hosts).toEqual(['{name}.review.test']);

    const moved = await call<Rule>('PATCH', `/api/rules/${a.body.id}`, {
      position: 0,
      gracePeriodMs: 600_000,
    });
    expect(moved.body.gracePeriodMs).toBe(600_000);
    expect((await call<Rule[]>('GET', '/api/rules')).body.map((r) => r.id)).toEqual([a.body.id, b.body.id]);

    expect((await call<{ deleted: string }>('DELETE', `/api/rules/${b.body.id}`)).body).toEqual({
      deleted: b.body.id,
    });
    expect((await call('GET', `/api/rules/${b.body.id}`)).status).toBe(404);
    expect((await call<{ rules: Rule[] }>('GET', '/api/snapshot')).body.rules.map((r) => r.id)).toEqual([
      a.body.id,
    ]);
  });

  it('answers 400 naming the field, and applies nothing', async () => {
    const { call } = await serve();
    const bad = await call<ErrorBody>('POST', '/api/rules', { pattern: '*-pr-*', group: 'pr-{3}' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.problems).toEqual([
      {
        field: 'group',
        code: 'placeholders',
        params: { bad: '{3}', count: 2, allowed: '{name}, {1}…{2}' },
        message: 'Group: {3} cannot be filled, the pattern has 2 wildcards; use {name}, {1}…{2}.',
      },
    ]);
    const rule = (await call<Rule>('POST', '/api/rules', { pattern: '*-pr-*', group: 'pr-{2}' })).body;
    const narrowed = await call<ErrorBody>('PATCH', `/api/rules/${rule.id}`, { pattern: 'pr-*' });
    expect(narrowed.status).toBe(400);
    expect(narrowed.body.error.problems[0]?.field).toBe('group');
    expect((await call<Rule>('GET', `/api/rules/${rule.id}`)).body.pattern).toBe('*-pr-*');
    expect((await call<Rule[]>('GET', '/api/rules')).body).toHaveLength(1);
  });

  it('previews what a rule would take before it is saved; saved, it manages those apps', async () => {
    const { call, clock } = await serve();
    // internal-wiki is on Clever Cloud, under no route; idle-review has a route.
    const preview = await call<RulePreviewResult>('POST', '/api/rules/_preview', {
      pattern: 'i*',
      hosts: ['{name}.wiki.test'],
    });
    expect(preview.status).toBe(200);
    expect(preview.body.matches.map((m) => [m.name, m.outcome, m.hosts])).toEqual([
      ['idle-review', 'kept-by-route', ['idle-review.wiki.test']],
      ['internal-wiki', 'managed', ['internal-wiki.wiki.test']],
    ]);
    expect(preview.body.unreadOwners).toEqual([]);
    expect((await call<Rule[]>('GET', '/api/rules')).body).toEqual([]);

    const rule = (await call<Rule>('POST', '/api/rules', { pattern: 'internal-*' })).body;
    const second = await call<RulePreviewResult>('POST', '/api/rules/_preview', {
      pattern: 'i*',
      position: 0,
    });
    expect(second.body.matches.find((m) => m.name === 'internal-wiki')).toMatchObject({
      outcome: 'taken-from-rule',
      otherRuleId: rule.id,
    });
    await clock.advance(30 * SECOND);
    const apps = (await call<AppView[]>('GET', '/api/apps')).body;
    expect(apps.find((a) => a.name === 'internal-wiki')).toMatchObject({ ruleId: rule.id, managed: true });
  });
});
