/**
 * Runs electronegativity (Doyensec's Electron security scanner) on a folder, in this process, and
 * returns its findings in the shape allowlist.ts judges.
 *
 * The scanner lives in tools/electronegativity/ with its own package.json and lockfile: it needs
 * TypeScript 4.2, which must never replace the app's. It is loaded from there with a require of
 * its own, so none of its dependencies is resolved from the app's node_modules.
 *
 * Offline by construction: the scanner's HTTP client (got) is replaced, before the scanner loads,
 * by a stub that fails at once. The scanner uses the network for two things: fresh translations
 * of its messages (it falls back to the ones it ships) and Electron's release list for
 * AVAILABLE_SECURITY_FIXES_GLOBAL_CHECK, which is not run (see EXCLUDED_CHECKS). Without the stub,
 * on a machine with no route out it waits for timeouts, and on Node 24 it crashes when its
 * client's retry fires after the failure.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { type Finding, SEVERITIES, type Severity } from './allowlist.ts';

export const TOOL_DIR = join(import.meta.dirname, '..', '..', 'tools', 'electronegativity');
const PACKAGE = '@doyensec/electronegativity';

/**
 * Checks that are not run, and why:
 * - AvailableSecurityFixesGlobalCheck downloads Electron's release notes to say whether the
 *   Electron in package.json has security fixes in a later patch release. CI has no route to
 *   them; keeping Electron current (checklist item 16) is a matter of dependency updates.
 */
export const EXCLUDED_CHECKS = ['AvailableSecurityFixesGlobalCheck'];

/** Fewer checks than this means the scanner did not load its checks: the scan proves nothing. */
const MIN_ATOMIC_CHECKS = 30;

interface RawIssue {
  id: string;
  file: string;
  sample?: string;
  location: { line: number; column: number };
  description: string;
  shortenedURL: string;
  severity: { name: string };
  confidence: { name: string };
  manualReview: boolean;
}

interface RunnerResult {
  globalChecks: number;
  atomicChecks: number;
  errors: { file: string; message: string; tolerable: boolean }[];
  issues: RawIssue[];
}

type Runner = (options: Record<string, unknown>, forCli: boolean) => Promise<RunnerResult>;

export interface ScanResult {
  findings: Finding[];
  checks: { global: number; atomic: number };
  /** Files the scanner could not parse (their code was not checked). */
  unparsed: { file: string; message: string }[];
  /** Parser warnings on files it did parse. */
  warnings: { file: string; message: string }[];
  /** What the scanner printed (its fallback notices). */
  printed: string[];
  /** The URLs the scanner tried to fetch (each refused at once). */
  refusedRequests: string[];
}

export class ScannerMissingError extends Error {}

let loaded: { run: Runner; refused: string[] } | null = null;

/** Load the scanner once, its HTTP client replaced by one that fails at once. */
function loadScanner(): { run: Runner; refused: string[] } {
  if (loaded) return loaded;
  const toolRequire = createRequire(join(TOOL_DIR, 'package.json'));
  let packageJson: string;
  try {
    packageJson = toolRequire.resolve(`${PACKAGE}/package.json`);
  } catch {
    throw new ScannerMissingError(
      `electronegativity is not installed: run \`npm ci --prefix tools/electronegativity\` first`,
    );
  }
  const scannerRequire = createRequire(packageJson);
  const refused: string[] = [];
  const fail = (url: unknown) => {
    refused.push(String(url));
    return Promise.reject(new Error('no network in the security scan'));
  };
  const got = Object.assign(fail, { head: fail, get: fail, post: fail, stream: fail, default: fail });
  const gotPath = scannerRequire.resolve('got');
  scannerRequire.cache[gotPath] = {
    id: gotPath,
    filename: gotPath,
    loaded: true,
    exports: got,
    children: [],
    paths: [],
  } as unknown as NodeJS.Module;
  const run = scannerRequire(join(packageJson, '..', 'dist', 'runner.js')) as Runner;
  loaded = { run, refused };
  return loaded;
}

/** The scanner's version (for the report). */
export function scannerVersion(): string {
  loadScanner();
  const toolRequire = createRequire(join(TOOL_DIR, 'package.json'));
  return (toolRequire(`${PACKAGE}/package.json`) as { version: string }).version;
}

export interface ScanOptions {
  /** The folder to scan; findings name files relative to it. */
  input: string;
  /** The Electron version the code runs on (its defaults differ between versions). */
  electronVersion: string;
  /** Where the scanner writes its own SARIF report, if anywhere. */
  sarif?: string;
}

export async function scan(options: ScanOptions): Promise<ScanResult> {
  const { run, refused } = loadScanner();
  const refusedBefore = refused.length;
  const printed: string[] = [];
  const log = console.log;
  const lang = process.env.LANG;
  // Its messages in English whatever the machine's locale (it picks a locale from LANG).
  process.env.LANG = 'en-US';
  console.log = (...args: unknown[]) => {
    printed.push(args.map(String).join(' '));
  };
  let result: RunnerResult;
  try {
    result = await run(
      {
        input: options.input,
        output: options.sarif,
        isSarif: options.sarif !== undefined,
        customScan: [],
        excludeFromScan: EXCLUDED_CHECKS.map((c) => c.toLowerCase()),
        isRelative: true,
        isVerbose: true,
        electronVersionOverride: options.electronVersion,
        parserPlugins: [],
      },
      false,
    );
  } finally {
    console.log = log;
    if (lang === undefined) delete process.env.LANG;
    else process.env.LANG = lang;
  }
  if (result.atomicChecks < MIN_ATOMIC_CHECKS) {
    throw new Error(
      `electronegativity loaded ${result.atomicChecks} checks (expected ${MIN_ATOMIC_CHECKS} or more): the scan proves nothing`,
    );
  }
  return {
    findings: result.issues.map(toFinding),
    checks: { global: result.globalChecks, atomic: result.atomicChecks },
    unparsed: result.errors.filter((e) => !e.tolerable).map(({ file, message }) => ({ file, message })),
    warnings: result.errors.filter((e) => e.tolerable).map(({ file, message }) => ({ file, message })),
    printed,
    refusedRequests: refused.slice(refusedBefore),
  };
}

function toFinding(issue: RawIssue): Finding {
  const severity = issue.severity.name as Severity;
  if (!SEVERITIES.includes(severity)) throw new Error(`unknown severity ${issue.severity.name}`);
  return {
    check: issue.id,
    file: issue.file.split('\\').join('/'),
    line: issue.location.line,
    column: issue.location.column,
    severity,
    confidence: issue.confidence.name,
    review: issue.manualReview,
    description: issue.description,
    text: typeof issue.sample === 'string' ? issue.sample : '',
    url: issue.shortenedURL,
  };
}
