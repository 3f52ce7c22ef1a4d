/**
 * A temporary copy of the repository for a test that plants a fault in it: the files git lists
 * (tracked, and untracked ones not ignored), node_modules linked. Test-only.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = fileURLToPath(new URL('..', import.meta.url));

export function repoCopy(prefix: string): string {
  const copy = mkdtempSync(join(tmpdir(), prefix));
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: REPO,
    encoding: 'utf8',
  })
    .split('\0')
    .filter((f) => f && f !== 'node_modules');
  for (const file of files) {
    mkdirSync(dirname(join(copy, file)), { recursive: true });
    // A file git lists but the work tree deleted (an uncommitted removal) is not copied.
    try {
      cpSync(join(REPO, file), join(copy, file));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  symlinkSync(join(REPO, 'node_modules'), join(copy, 'node_modules'));
  return copy;
}
