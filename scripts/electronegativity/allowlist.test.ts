/**
 * The verdict of the Electron security scan, on findings made up here (the scanner itself runs in
 * `npm run security:electron`, with its self-test on security/fixtures/insecure-app), and the
 * committed allowlist and fixture checked against the code they quote.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  type AllowEntry,
  type Finding,
  failureReport,
  judge,
  parseAllowlist,
  parsePatterns,
  passed,
} from './allowlist.ts';
import { inlineDisables, shippedSources } from './sources.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

function finding(overrides: Partial<Finding> = {}): Finding {
  return {
    check: 'OPEN_EXTERNAL_JS_CHECK',
    file: 'main/desktop/security.ts',
    line: 41,
    column: 4,
    severity: 'MEDIUM',
    confidence: 'TENTATIVE',
    review: true,
    description: 'Review the use of openExternal',
    text: 'policy.shell.openExternal(link).catch((error: unknown) => {',
    url: 'https://git.io/JeuMC',
    ...overrides,
  };
}

const WHY = 'Only links that externalLink() accepted reach this call; see url-policy.ts and its tests.';
const entry: AllowEntry = {
  check: 'OPEN_EXTERNAL_JS_CHECK',
  file: 'main/desktop/security.ts',
  match: 'policy.shell.openExternal(link)',
  why: WHY,
};

describe('the verdict of the Electron security scan', () => {
  it('passes when every finding is explained by an entry naming its check, file and code', () => {
    const verdict = judge([finding()], [entry]);
    expect(passed(verdict)).toBe(true);
    expect(verdict.explained).toEqual([{ finding: finding(), entry }]);
  });

  it('fails on a finding of any severity that no entry explains, a high one first in the report', () => {
    const high = finding({
      check: 'CONTEXT_ISOLATION_JS_CHECK',
      file: 'main/desktop/window.ts',
      line: 60,
      severity: 'HIGH',
      text: 'contextIsolation: false,',
      description: 'Review the use of the contextIsolation option',
    });
    const info = finding({
      check: 'ELECTRON_VERSION_JSON_CHECK',
      file: 'package.json',
      severity: 'INFORMATIONAL',
    });
    const verdict = judge([info, finding(), high], [entry]);
    expect(passed(verdict)).toBe(false);
    expect(verdict.unexplained).toEqual([info, high]);
    const report = failureReport(verdict, 'security/electronegativity-allowlist.json');
    expect(report).toMatch(/^2 finding\(s\) not explained/);
    expect(report.indexOf('HIGH CONTEXT_ISOLATION_JS_CHECK at main/desktop/window.ts:60')).toBeLessThan(
      report.indexOf('INFORMATIONAL ELECTRON_VERSION_JSON_CHECK'),
    );
  });

  it('does not let an entry explain the same check in another file, or other code in its file', () => {
    expect(passed(judge([finding({ file: 'main/desktop/index.ts' })], [entry]))).toBe(false);
    expect(passed(judge([finding({ text: 'shell.openExternal(untrusted)' })], [entry]))).toBe(false);
    expect(passed(judge([finding({ check: 'PRELOAD_JS_CHECK' })], [entry]))).toBe(false);
  });

  it('fails on an entry that explains nothing any more (the code changed, or the scan went blind)', () => {
    const verdict = judge([], [entry]);
    expect(passed(verdict)).toBe(false);
    expect(verdict.stale).toEqual([entry]);
    expect(failureReport(verdict, 'allowlist.json')).toContain('explain no finding any more');
  });

  it('refuses an allowlist entry without a real reason, or whose match would explain anything', () => {
    const parse = (findings: unknown[]) => parseAllowlist({ findings });
    expect(() => parse([{ ...entry, why: 'false positive' }])).toThrow(/"why" must say why it is safe/);
    expect(() => parse([{ ...entry, why: undefined }])).toThrow(/"why"/);
    expect(() => parse([{ ...entry, match: ' ' }])).toThrow(/"match" must quote/);
    expect(() => parse([{ ...entry, check: '' }])).toThrow(/"check" and "file"/);
    expect(() => parseAllowlist({})).toThrow(/"findings" array/);
    // An app-wide finding quotes no code: there, an empty match is the only one possible.
    expect(parse([{ ...entry, file: 'N/A', match: '' }])).toEqual([{ ...entry, file: 'N/A', match: '' }]);
  });
});

describe('the committed allowlist and self-test fixture', () => {
  const read = (file: string) => JSON.parse(readFileSync(join(root, file), 'utf8')) as unknown;

  it('quote code that is in the files they name', () => {
    const allowed = parseAllowlist(read('security/electronegativity-allowlist.json'));
    const expected = parsePatterns(
      read('security/fixtures/insecure-app/expected-findings.json'),
      'expected-findings.json',
    );
    expect(allowed.length).toBeGreaterThan(0);
    for (const [base, patterns] of [
      ['', allowed],
      ['security/fixtures/insecure-app', expected],
    ] as const) {
      for (const p of patterns) {
        if (p.file === 'N/A') continue;
        expect(readFileSync(join(root, base, p.file), 'utf8'), `${p.check} in ${p.file}`).toContain(p.match);
      }
    }
  });
});

describe('the sources the scan covers', () => {
  it('are the shipped code of main/, shared/ and renderer/ with the configs, without tests', () => {
    const files = shippedSources(root);
    expect(files).toEqual(
      expect.arrayContaining([
        'main/desktop/index.ts',
        'main/desktop/preload.ts',
        'main/desktop/security.ts',
        'main/desktop/window.ts',
        'renderer/index.html',
        'electron.vite.config.ts',
        'package.json',
      ]),
    );
    expect(files.filter((f) => /\.test\.tsx?$|\/testing\/|^renderer\/test\//.test(f))).toEqual([]);
  });

  it('refuse comments that silence the scanner in the code', () => {
    const dir = mkdtempSync(join(tmpdir(), 'reaper-eng-'));
    mkdirSync(join(dir, 'main'));
    writeFileSync(
      join(dir, 'main', 'a.ts'),
      'const a = 1;\nnew BrowserWindow(); /* eng-disable AUXCLICK_JS_CHECK */\n',
    );
    writeFileSync(join(dir, 'main', 'b.ts'), 'const b = 2;\n');
    expect(inlineDisables(dir, ['main/a.ts', 'main/b.ts'])).toEqual(['main/a.ts:2']);
    expect(inlineDisables(root, shippedSources(root))).toEqual([]);
  });
});
