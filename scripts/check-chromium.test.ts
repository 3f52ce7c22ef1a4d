import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chromiumProblem } from './check-chromium.ts';

const script = new URL('./check-chromium.ts', import.meta.url).pathname;

describe('the Chromium check that starts npm test', () => {
  it('stops at once with how to install it when the browser is missing', () => {
    const run = spawnSync(process.execPath, [script], {
      env: { ...process.env, CHROMIUM_PATH: '/nonexistent/chromium' },
      encoding: 'utf8',
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('No Chromium at /nonexistent/chromium');
    expect(run.stderr).toContain('apt-get install -y chromium');
  });

  it('lets an executable through, and refuses a file that cannot run', () => {
    const dir = mkdtempSync(join(tmpdir(), 'reaper-chromium-'));
    try {
      const browser = join(dir, 'chromium');
      writeFileSync(browser, '#!/bin/sh\n', { mode: 0o755 });
      expect(chromiumProblem({ CHROMIUM_PATH: browser })).toBeNull();
      const notExecutable = join(dir, 'not-a-browser');
      writeFileSync(notExecutable, '', { mode: 0o644 });
      // root may execute nothing without an x bit either: X_OK needs one for everyone.
      expect(chromiumProblem({ CHROMIUM_PATH: notExecutable })).toContain('No Chromium at');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
