/**
 * `npm run security:electron`: the Electron security scan (electronegativity) of the desktop app.
 * Needs `npm ci --prefix tools/electronegativity` once (CI does it); runs offline, in seconds.
 *
 * 1. Self-test: scans security/fixtures/insecure-app, a deliberately insecure app, and fails
 *    unless every problem listed in its expected-findings.json is found (a scanner that stopped
 *    parsing TypeScript or lost its checks would otherwise pass on anything).
 * 2. Scans the code the app ships (see electronegativity/sources.ts), and fails when a file could
 *    not be parsed, when a finding of any severity is not explained by
 *    security/electronegativity-allowlist.json, or when an entry there explains nothing any more.
 *
 * Writes test-results/electronegativity/findings.json (every finding, with its verdict and the
 * reason it is safe) and electronegativity.sarif (the scanner's own report).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  bySeverity,
  explains,
  type Finding,
  failureReport,
  judge,
  parseAllowlist,
  parsePatterns,
  passed,
} from './electronegativity/allowlist.ts';
import { EXCLUDED_CHECKS, ScannerMissingError, scan, scannerVersion } from './electronegativity/scan.ts';
import { inlineDisables, shippedSources, stage } from './electronegativity/sources.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const ALLOWLIST = 'security/electronegativity-allowlist.json';
const FIXTURE = 'security/fixtures/insecure-app';
const out = join(root, 'test-results', 'electronegativity');
const started = performance.now();

function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(join(root, file), 'utf8'));
  } catch (error) {
    throw new Error(`${file} cannot be read: ${(error as Error).message}`);
  }
}

function fail(message: string): never {
  console.error(`\nsecurity:electron FAILED: ${message}`);
  process.exit(1);
}

/** The exact Electron version of package.json (the scanner's checks depend on its defaults). */
function electronVersion(): string {
  const pkg = readJson('package.json') as { devDependencies?: Record<string, string> };
  const version = pkg.devDependencies?.electron;
  if (!version || !/^\d+\.\d+\.\d+$/.test(version)) {
    fail(`package.json must pin electron to an exact version (found ${JSON.stringify(version)})`);
  }
  return version;
}

async function selfTest(version: string): Promise<{ expected: number; found: number }> {
  const expected = parsePatterns(
    readJson(`${FIXTURE}/expected-findings.json`),
    `${FIXTURE}/expected-findings.json`,
  );
  const result = await scan({ input: join(root, FIXTURE), electronVersion: version });
  const missed = expected.filter((e) => !result.findings.some((f) => explains(e, f)));
  const problems: string[] = [];
  if (result.unparsed.length > 0)
    problems.push(...result.unparsed.map((e) => `cannot parse ${e.file}: ${e.message}`));
  for (const e of missed)
    problems.push(`did not report ${e.check} in ${e.file} (${JSON.stringify(e.match)})`);
  // With nothing allowed, the checker must reject the fixture.
  if (passed(judge(result.findings, []))) problems.push('the checker let the insecure fixture pass');
  if (problems.length > 0) {
    fail(
      `the scanner's self-test on ${FIXTURE} went wrong, so its verdict on the app means nothing:\n  - ${problems.join('\n  - ')}`,
    );
  }
  return { expected: expected.length, found: result.findings.length };
}

try {
  const allowlist = parseAllowlist(readJson(ALLOWLIST), ALLOWLIST);
  const version = electronVersion();
  const tool = scannerVersion();

  const self = await selfTest(version);
  console.log(
    `security:electron: electronegativity ${tool} self-test: the ${self.expected} known problems of ${FIXTURE} found (${self.found} findings)`,
  );

  const files = shippedSources(root);
  const disabled = inlineDisables(root, files);
  if (disabled.length > 0) {
    fail(
      `eng-disable comments silence the scanner in the code; explain the finding in ${ALLOWLIST} instead:\n  - ${disabled.join('\n  - ')}`,
    );
  }
  const sources = join(out, 'sources');
  stage(root, files, sources);
  mkdirSync(out, { recursive: true });
  const sarif = join(out, 'electronegativity.sarif');
  const result = await scan({ input: sources, electronVersion: version, sarif });
  const unparsed = result.unparsed.map((e) => `${relative(sources, e.file)}: ${e.message}`);
  for (const w of result.warnings)
    console.log(`  parser warning in ${relative(sources, w.file)}: ${w.message}`);

  const verdict = judge(result.findings, allowlist);
  const seconds = (performance.now() - started) / 1000;
  const reasonOf = new Map(verdict.explained.map(({ finding, entry }) => [finding, entry.why]));
  const report = {
    scanner: `electronegativity ${tool}`,
    electron: version,
    checks: result.checks,
    excludedChecks: EXCLUDED_CHECKS,
    files: files.length,
    unparsed,
    refusedRequests: result.refusedRequests,
    passed: passed(verdict) && unparsed.length === 0,
    seconds: Number(seconds.toFixed(1)),
    findings: [...result.findings].sort(bySeverity).map((f: Finding) => ({
      ...f,
      allowed: reasonOf.has(f),
      why: reasonOf.get(f) ?? null,
    })),
    staleAllowlistEntries: verdict.stale,
  };
  writeFileSync(join(out, 'findings.json'), `${JSON.stringify(report, null, 2)}\n`);

  const where = relative(root, out);
  console.log(
    `security:electron: ${files.length} files scanned (main/, shared/, renderer/), ${result.checks.atomic + result.checks.global} checks, ` +
      `${result.findings.length} findings, all explained: ${passed(verdict) ? 'yes' : 'no'}; report in ${where}/ (${seconds.toFixed(1)} s)`,
  );
  for (const { finding } of [...verdict.explained].sort((a, b) => bySeverity(a.finding, b.finding))) {
    const at = finding.file === 'N/A' ? 'app-wide' : `${finding.file}:${finding.line}`;
    console.log(`  allowed: ${finding.severity} ${finding.check} at ${at}`);
  }
  if (unparsed.length > 0) {
    fail(
      `the scanner could not parse these files, so their code was not checked:\n  - ${unparsed.join('\n  - ')}`,
    );
  }
  if (!passed(verdict)) fail(failureReport(verdict, ALLOWLIST));
} catch (error) {
  if (error instanceof ScannerMissingError) fail(error.message);
  throw error;
}
