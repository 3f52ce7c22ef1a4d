import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { check, format, KNOWN, lineCount, NO_ALLOWANCES, type Problem, sourceFiles } from './check-layers.ts';

const repo = fileURLToPath(new URL('..', import.meta.url));
const script = fileURLToPath(new URL('./check-layers.ts', import.meta.url));
const lines = (count: number, head = '') =>
  `${head}${'export const x = 1;\n'.repeat(count - (head ? 1 : 0))}`;

/**
 * A tree that breaks each rule once (the files named in `planted`), next to files that look close
 * but keep the rules (tests, main/desktop, a reasoned long file, a file of exactly 500 lines).
 */
const tree: Record<string, string> = {
  'main/engine/loop.ts':
    "import { open } from '../store/db.ts';\nimport { HOUR } from '../../shared/time.ts';\n",
  'main/engine/loop.test.ts': "import { harness } from '../testing/harness.ts';\n",
  'main/store/db.ts': "export type Api = import('../service/api.ts').Api;\nexport const open = 1;\n",
  'main/store/db.test.ts': "import { serve } from '../server/http.ts';\n",
  'main/service/api.ts': "import { app } from 'electron';\nexport interface Api {}\n",
  'main/desktop/window.ts': "import { BrowserWindow } from 'electron';\n",
  'main/server/http.ts': "import { harness } from '../testing/harness.ts';\nexport const serve = 1;\n",
  'main/testing/harness.ts':
    "export { open } from '../store/db.ts';\nexport * from '../desktop/window.ts';\n",
  'renderer/view.tsx':
    "import type { Api } from '../main/service/api.ts';\nimport { HOUR } from '../shared/time.ts';\n",
  'renderer/api/client.ts': "import type { Calls } from './calls.ts';\nexport const get = 1;\n",
  'renderer/api/calls.ts':
    "export type Calls = number;\n\nexport const load = () => import('./client.ts');\n",
  'shared/time.ts': 'export const HOUR = 3_600_000;\n',
  'shared/files.ts': "import { readFileSync } from 'node:fs';\n",
  'shared/paths.ts': "import { join } from 'path';\n",
  'shared/hooks.ts': "import { useState } from 'react';\n",
  'shared/dom.ts': "import { render } from '@testing-library/react';\n",
  'shared/view.ts': "export { view } from '../renderer/view.tsx';\n",
  'shared/time.test.ts':
    "import { execFileSync } from 'node:child_process';\nimport { HOUR } from './time.ts';\n",
  'main/simulator/big.ts': lines(501),
  'main/simulator/table.ts': lines(
    600,
    '/**\n * A table.\n */\n// size: one generated table, read as a whole\n',
  ),
  'main/simulator/limit.ts': lines(500),
  'main/simulator/big.test.ts': lines(700),
  'bench/loop.ts': "import { harness } from '../main/testing/harness.ts';\n",
  'main/store/contract.ts': 'export interface Store {}\n',
  'main/team/keeper.ts':
    "import type { Store } from '../store/contract.ts';\nimport { open } from '../store/db.ts';\nimport { Api } from '../service/api.ts';\n",
  'main/team/sync.ts': "import { HOUR } from '../../shared/time.ts';\nimport { keep } from './keeper.ts';\n",
  'main/team/sync.test.ts': "import { open } from '../store/db.ts';\n",
  'main/store/leases.ts': "import { keep } from '../team/keeper.ts';\n",
  'main/metrics/registry.ts': "import type { Api } from '../service/api.ts';\n",
  'main/alerts/hooks.ts': "import { keep } from '../team/keeper.ts';\n",
  'main/engine/handover.ts': "import type { Sync } from '../team/sync.ts';\n",
};

const planted: [string, number, Problem['rule']][] = [
  ['main/engine/loop.ts', 1, 'engine'],
  ['main/store/db.ts', 1, 'lower-layers'],
  ['main/service/api.ts', 1, 'electron'],
  ['main/server/http.ts', 1, 'test-support'],
  ['main/testing/harness.ts', 2, 'test-support'],
  ['renderer/view.tsx', 1, 'renderer'],
  ['shared/files.ts', 1, 'shared'],
  ['shared/paths.ts', 1, 'shared'],
  ['shared/hooks.ts', 1, 'shared'],
  ['shared/dom.ts', 1, 'shared'],
  ['shared/view.ts', 1, 'shared'],
  ['renderer/api/calls.ts', 3, 'cycle'],
  ['main/simulator/big.ts', 1, 'size'],
  ['main/team/keeper.ts', 2, 'team'],
  ['main/team/keeper.ts', 3, 'team'],
  ['main/store/leases.ts', 1, 'lower-layers'],
  ['main/metrics/registry.ts', 1, 'lower-layers'],
  ['main/alerts/hooks.ts', 1, 'lower-layers'],
  ['main/engine/handover.ts', 1, 'engine'],
];

let root: string;
const plant = (files: Record<string, string>) => {
  const dir = mkdtempSync(join(tmpdir(), 'check-layers-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
};
const run = (...args: string[]) => spawnSync(process.execPath, [script, ...args], { encoding: 'utf8' });

beforeAll(() => {
  root = plant(tree);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('check-layers on a planted tree', () => {
  it('reports each planted violation once, and nothing else', () => {
    const found = check(root).map((p): [string, number, Problem['rule']] => [p.file, p.line, p.rule]);
    expect(found.sort()).toEqual([...planted].sort());
  });

  it('names the rule broken and the file imported', () => {
    const messages = check(root).map(format);
    expect(messages).toContain(
      'main/engine/loop.ts:1  engine: main/engine imports only main/engine and shared/, not main/store/db.ts',
    );
    expect(messages).toContain(
      "main/team/keeper.ts:2  team: main/team imports only main/engine, main/team and the datastore's contracts, not main/store/db.ts",
    );
    expect(messages).toContain(
      'main/store/leases.ts:1  lower-layers: store never imports team, service, server or desktop (main/team/keeper.ts)',
    );
    expect(messages).toContain(
      'renderer/api/calls.ts:3  cycle: import cycle: renderer/api/calls.ts <-> renderer/api/client.ts',
    );
    expect(messages).toContain(
      "main/simulator/big.ts:1  size: 501 lines, over 500: split it, or say why in a '// size: <reason>' comment at its top",
    );
    expect(messages).toContain(
      "shared/paths.ts:1  shared: shared/ runs in the browser too: no Node module 'path'",
    );
  });

  it('fails the command, printing each problem', () => {
    const result = run(root);
    expect(result.status).toBe(1);
    for (const problem of check(root)) expect(result.stderr).toContain(format(problem));
    expect(result.stderr).toContain(`check-layers: ${planted.length} problem(s)`);
  });

  it('passes the command on a tree that keeps the rules', () => {
    const clean = plant({
      'main/engine/loop.ts': "import { HOUR } from '../../shared/time.ts';\n",
      'shared/time.ts': 'export const HOUR = 3_600_000;\n',
      'renderer/view.tsx': "import { HOUR } from '../shared/time.ts';\n",
    });
    try {
      const result = run(clean);
      expect(result.stderr).toBe('');
      expect(result.status).toBe(0);
      expect(result.stdout).toContain('check-layers: 3 files');
    } finally {
      rmSync(clean, { recursive: true, force: true });
    }
  });

  it('tolerates what the allowances list, and reports an allowance that matches nothing any more', () => {
    const problems = check(root, {
      cycles: [
        ['renderer/api/client.ts', 'renderer/api/calls.ts'],
        ['shared/time.ts', 'shared/view.ts'],
      ],
      oversize: ['main/simulator/big.ts', 'main/simulator/limit.ts', 'main/gone.ts'],
    }).map(format);
    expect(problems.filter((p) => / (cycle|size): /.test(p)).sort()).toEqual([
      'main/gone.ts:1  size: no such file: remove it from KNOWN.oversize',
      'main/simulator/limit.ts:1  size: no longer over the limit: remove it from KNOWN.oversize',
      'shared/time.ts:1  cycle: the cycle shared/time.ts <-> shared/view.ts is gone: remove it from KNOWN.cycles',
    ]);
  });
});

describe('check-layers on this repository', () => {
  it('finds no problem beyond the known ones', () => {
    expect(check(repo, KNOWN).map(format)).toEqual([]);
  });

  it('scans the six source folders', () => {
    const folders = new Set(sourceFiles(repo).map((file) => file.split('/')[0]));
    expect([...folders].sort()).toEqual(['bench', 'e2e', 'main', 'renderer', 'scripts', 'shared']);
  });

  it('reports the known problems when nothing is allowed, so the allowances are all in use', () => {
    const problems = check(repo, NO_ALLOWANCES);
    expect(problems.filter((p) => p.rule === 'cycle')).toHaveLength(KNOWN.cycles.length);
    expect(problems.filter((p) => p.rule === 'size').map((p) => p.file)).toEqual(
      expect.arrayContaining(KNOWN.oversize),
    );
  });

  it('counts lines as an editor numbers them', () => {
    expect([lineCount('a\nb\n'), lineCount('a\nb'), lineCount('\n'), lineCount('')]).toEqual([2, 2, 1, 0]);
  });
});
