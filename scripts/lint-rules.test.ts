/**
 * `npm run lint` catches a floating promise and an unused export: each is planted in a temporary
 * copy of the repository (its files as git lists them, node_modules linked), and the tool that
 * `npm run lint` runs for it is run there with the repository's own config.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO, repoCopy } from './repo-copy.ts';

const bin = (name: string) => join(REPO, 'node_modules', '.bin', name);
const lint = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { scripts: { lint: string } })
  .scripts.lint;

let copy: string;

beforeAll(() => {
  copy = repoCopy('lint-rules-');
});

afterAll(() => {
  if (copy) rmSync(copy, { recursive: true, force: true });
});

interface EslintMessage {
  ruleId: string | null;
  line: number;
}

describe('npm run lint', () => {
  it('runs eslint and knip, with no allowance on the command line', () => {
    expect(lint).toMatch(/(^|&& )eslint --max-warnings 0 \.( |$)/);
    expect(lint).toMatch(/(^|&& )knip( |$)/);
  });

  it('fails on a floating promise, a `void` one, an async callback where a plain one is expected, even under an eslint-disable comment', () => {
    const planted = [
      'async function later(): Promise<number> {',
      '  return 1;',
      '}',
      'export function planted(): void {',
      '  later();', // line 5: floating
      '  void later();', // line 6: `void` does not count as handling it
      '  setTimeout(async () => {', // line 7: a promise where a void callback is expected
      '    await later();',
      '  }, 1);',
      '  later().catch((error: unknown) => console.error(error));', // handled: no finding
      '}',
      '',
    ].join('\n');
    writeFileSync(join(copy, 'main/planted-promise.ts'), planted);
    // No allowlist in the code either: an inline disable comment has no effect.
    writeFileSync(
      join(copy, 'main/planted-disable.ts'),
      'async function later(): Promise<void> {}\n// eslint-disable-next-line\nlater();\n',
    );
    const run = spawnSync(
      bin('eslint'),
      ['--format', 'json', 'main/planted-promise.ts', 'main/planted-disable.ts'],
      { cwd: copy, encoding: 'utf8' },
    );
    expect(run.status, run.stderr).toBe(1);
    const results = JSON.parse(run.stdout) as { filePath: string; messages: EslintMessage[] }[];
    const of = (name: string) =>
      results.find((r) => r.filePath.endsWith(name))!.messages.map((m) => `${m.line} ${m.ruleId}`);
    expect(of('planted-promise.ts')).toEqual([
      '5 @typescript-eslint/no-floating-promises',
      '6 @typescript-eslint/no-floating-promises',
      '7 @typescript-eslint/no-misused-promises',
    ]);
    expect(of('planted-disable.ts')).toContain('3 @typescript-eslint/no-floating-promises');
  }, 180_000);

  it('fails on an export nobody imports, and names it', () => {
    const target = join(copy, 'shared/log.ts');
    writeFileSync(
      target,
      `${readFileSync(target, 'utf8')}\nexport function plantedNobodyImports(): number {\n  return 1;\n}\n`,
    );
    const run = spawnSync(bin('knip'), ['--no-progress', '--reporter', 'json'], {
      cwd: copy,
      encoding: 'utf8',
    });
    expect(run.status, run.stderr).toBe(1);
    const report = JSON.parse(run.stdout) as { issues: { file: string; exports: { name: string }[] }[] };
    const inLog = report.issues.find((i) => i.file === 'shared/log.ts');
    expect(inLog?.exports.map((e) => e.name)).toEqual(['plantedNobodyImports']);
  }, 180_000);
});
