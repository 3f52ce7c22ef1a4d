/**
 * A fault nobody handled fails the test run: a rejected promise in the test process (vitest's own
 * report, not switched off), and a serve process's last-resort line (main/testing/vitest-setup.ts).
 * Each is planted in a test of a temporary copy of the repository, run with its vitest config.
 */
import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import config from '../vitest.config.ts';
import { REPO, repoCopy } from './repo-copy.ts';

let copy: string;

beforeAll(() => {
  copy = repoCopy('unhandled-faults-');
});

afterAll(() => {
  if (copy) rmSync(copy, { recursive: true, force: true });
});

function vitest(file: string) {
  const run = spawnSync(join(REPO, 'node_modules', '.bin', 'vitest'), ['run', '--project', 'node', file], {
    cwd: copy,
    encoding: 'utf8',
    env: { ...process.env, CI: 'true', FORCE_COLOR: '0', NO_COLOR: '1' },
  });
  return { status: run.status, output: `${run.stdout}\n${run.stderr}` };
}

describe('a fault nobody handled', () => {
  it('is not ignored by the config, and the node tests run the setup that checks children', () => {
    const test = config.test!;
    expect(test.dangerouslyIgnoreUnhandledErrors).toBeUndefined();
    const node = test.projects!.find(
      (p) => typeof p === 'object' && 'test' in p && p.test?.name === 'node',
    ) as { test: { setupFiles: string[]; dangerouslyIgnoreUnhandledErrors?: boolean } };
    expect(node.test.setupFiles).toContain('main/testing/vitest-setup.ts');
    expect(node.test.dangerouslyIgnoreUnhandledErrors).toBeUndefined();
  });

  it('in the test process: a rejected promise nobody awaited fails the run, its test passing', () => {
    writeFileSync(
      join(copy, 'main/planted-rejection.test.ts'),
      [
        "import { expect, it } from 'vitest';",
        "it('passes its own assertion', async () => {",
        "  Promise.reject(new Error('planted: nobody awaits this'));",
        '  await new Promise((r) => setImmediate(r));',
        '  expect(1).toBe(1);',
        '});',
        '',
      ].join('\n'),
    );
    const { status, output } = vitest('main/planted-rejection.test.ts');
    expect(status, output).toBe(1);
    expect(output).toContain('Unhandled Rejection');
    expect(output).toContain('planted: nobody awaits this');
    expect(output).toMatch(/1 passed/);
  }, 180_000);

  it("in a server process a test started: its last resort's line fails the test", () => {
    // The child installs the serve command's own last resort, then rejects a promise nobody awaits.
    writeFileSync(
      join(copy, 'main/planted-child.ts'),
      [
        "import { installLastResort } from './server/cli.ts';",
        "installLastResort(process, (level, message) => console.error('[' + level + '] ' + message), process.exit);",
        "Promise.reject(new Error('planted in the child'));",
        '',
      ].join('\n'),
    );
    writeFileSync(
      join(copy, 'main/planted-child.test.ts'),
      [
        "import { spawn } from 'node:child_process';",
        "import { expect, it } from 'vitest';",
        "import { watchChildFaults } from './testing/serve-process.ts';",
        "it('runs a child that exits 0', async () => {",
        "  const child = spawn(process.execPath, ['main/planted-child.ts'], { stdio: ['ignore', 'pipe', 'pipe'] });",
        "  watchChildFaults(child, 'planted child');",
        "  const code = await new Promise((r) => child.once('close', r));",
        '  expect(code).toBe(0);',
        '});',
        '',
      ].join('\n'),
    );
    const { status, output } = vitest('main/planted-child.test.ts');
    expect(status, output).toBe(1);
    expect(output).toContain('a child process logged 1 fault(s) nobody handled');
    expect(output).toContain(
      'planted child: [error] a promise was rejected and nobody handled it (serving on)',
    );
    expect(output).toContain('planted in the child');
    expect(output).toMatch(/1 failed/);
  }, 180_000);
});
