/**
 * `npm run lint` (so `npm test`) runs this check on the imports themselves, parsed by TypeScript
 * (`import type`, re-exports and `import()` included):
 * - the layering: only main/desktop imports electron; renderer/ never imports main/; shared/ imports no
 *   Node module, no DOM-only module, no React, nothing of main/ or renderer/; main/engine's non-test
 *   files import only main/engine and shared/ (so never main/team); main/team's non-test files import
 *   only shared/, main/engine, main/team and the datastore's contracts (main/store/contract.ts,
 *   main/store/team-contract.ts), never an adapter; the lower layers (main/store, main/config,
 *   main/clever, main/traffic, main/simulator, main/alerts, main/reports, main/metrics) never import
 *   main/team, main/service, main/server or main/desktop; main/testing (test support) imports nothing
 *   of main/desktop; production files never import test support (a `testing/` or `test/` folder).
 *   A test file (`*.test.ts`) is a leaf nothing imports, so the shared/, main/engine and lower-layer
 *   rules bind the non-test files only: a test may reach what it tests with (shared/ tests run in Node);
 * - no import cycle among the .ts/.tsx files of main/, shared/, renderer/, bench/, scripts/ and e2e/;
 * - no non-test file of main/, shared/ or renderer/ over 500 lines, unless one of its first 10 lines
 *   says why, as a comment `// size: <reason>`.
 *
 * Usage: `node scripts/check-layers.ts [root]` prints each problem as `file:line  rule: message` and
 * exits 1 if there is any. The allowances below apply to this repository only, not to another root.
 */

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const MAX_LINES = 500;
const REASON_LINES = 10;
const SIZE_REASON = /^\s*\/\/\s*size:\s*\S/;
const SCANNED = ['main', 'shared', 'renderer', 'bench', 'scripts', 'e2e'];
const SIZE_CHECKED = ['main', 'shared', 'renderer'];

export interface Allowances {
  /** Cycles tolerated for now, each as the exact set of files in it. */
  cycles: string[][];
  /** Files tolerated over MAX_LINES for now. */
  oversize: string[];
}

/**
 * What main holds today that the check would refuse: nothing. A known problem listed here (with the
 * reason, while a change that fixes it is under way) is tolerated; an entry that no longer matches
 * anything is reported as stale, so that a fixed problem cannot come back unnoticed.
 */
export const KNOWN: Allowances = {
  cycles: [],
  oversize: [],
};

export const NO_ALLOWANCES: Allowances = { cycles: [], oversize: [] };

export interface Import {
  specifier: string;
  line: number;
  /** Repository-relative path (with `/`) of the .ts/.tsx file a relative import names, if it exists. */
  target: string | undefined;
}

export interface Problem {
  file: string;
  line: number;
  rule:
    | 'electron'
    | 'renderer'
    | 'shared'
    | 'engine'
    | 'team'
    | 'lower-layers'
    | 'test-support'
    | 'cycle'
    | 'size';
  message: string;
}

const isTest = (file: string) => /\.test\.tsx?$/.test(file);
const isTestSupport = (file: string) => file.split('/').some((part) => part === 'testing' || part === 'test');
const under = (file: string | undefined, folder: string) => file?.startsWith(`${folder}/`) ?? false;
const packageName = (specifier: string) =>
  specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : (specifier.split('/')[0] ?? '');

const nodeBuiltins = new Set(builtinModules.filter((name) => !name.startsWith('_')));
const isNodeModule = (specifier: string) =>
  specifier.startsWith('node:') || nodeBuiltins.has(specifier.split('/')[0] ?? '');
const isElectron = (specifier: string) => ['electron', 'electron-store'].includes(packageName(specifier));
/** React and its renderers, and the modules that need a DOM. */
const isReactOrDom = (specifier: string) => {
  const name = packageName(specifier);
  return (
    /(^|\/)react($|-)/.test(name) ||
    name.startsWith('@testing-library/') ||
    ['jsdom', 'happy-dom'].includes(name)
  );
};

/** The .ts/.tsx files under the scanned folders, as repository-relative paths with `/`. */
export function sourceFiles(root: string, folders: readonly string[] = SCANNED): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts'))
        found.push(toRepoPath(root, path));
    }
  };
  for (const folder of folders) if (existsSync(join(root, folder))) walk(join(root, folder));
  return found.sort();
}

const toRepoPath = (root: string, path: string) => relative(root, path).split(sep).join('/');

function resolveRelative(root: string, from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = resolve(root, dirname(from), specifier);
  const stem = base.replace(/\.(m?js|jsx)$/, '');
  const candidates = [base, `${stem}.ts`, `${stem}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')];
  const hit = candidates.find((path) => /\.tsx?$/.test(path) && existsSync(path) && statSync(path).isFile());
  return hit === undefined ? undefined : toRepoPath(root, hit);
}

/** Every module a file names: imports and re-exports (type-only too), `import()` calls and types. */
export function importsOf(
  root: string,
  file: string,
  text = readFileSync(join(root, file), 'utf8'),
): Import[] {
  const kind = file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const found: Import[] = [];
  const add = (node: ts.Node | undefined) => {
    if (node === undefined || !ts.isStringLiteralLike(node)) return;
    const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
    found.push({ specifier: node.text, line, target: resolveRelative(root, file, node.text) });
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) add(node.moduleSpecifier);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference))
      add(node.moduleReference.expression);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword)
      add(node.arguments[0]);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) add(node.argument.literal);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** What main/team builds on: the engine, itself, and the datastore's contracts (no adapter). */
const TEAM_MAY_IMPORT = ['main/engine', 'main/team', 'main/store/contract.ts', 'main/store/team-contract.ts'];
/** The layers below the composition (and below team mode), and what they never import. */
const LOWER = [
  'main/store',
  'main/config',
  'main/clever',
  'main/traffic',
  'main/simulator',
  'main/alerts',
  'main/reports',
  'main/metrics',
];
const UPPER = ['main/team', 'main/service', 'main/server', 'main/desktop'];

/** The layering rules: the message for an import a file may not have, or undefined. */
function layerProblem(file: string, imp: Import): Pick<Problem, 'rule' | 'message'> | undefined {
  const { specifier, target } = imp;
  if (isElectron(specifier) && !under(file, 'main/desktop'))
    return { rule: 'electron', message: `only main/desktop imports electron, not '${specifier}'` };
  if (under(file, 'renderer') && under(target, 'main'))
    return { rule: 'renderer', message: `renderer/ never imports main/ (${target})` };
  if (under(file, 'shared') && !isTest(file)) {
    if (isNodeModule(specifier))
      return { rule: 'shared', message: `shared/ runs in the browser too: no Node module '${specifier}'` };
    if (isReactOrDom(specifier))
      return { rule: 'shared', message: `shared/ runs in Node too: no React or DOM module '${specifier}'` };
    if (under(target, 'main') || under(target, 'renderer'))
      return { rule: 'shared', message: `shared/ imports nothing of main/ or renderer/ (${target})` };
  }
  if (under(file, 'main/engine') && !isTest(file) && under(target, 'main') && !under(target, 'main/engine'))
    return { rule: 'engine', message: `main/engine imports only main/engine and shared/, not ${target}` };
  if (
    under(file, 'main/team') &&
    !isTest(file) &&
    under(target, 'main') &&
    !TEAM_MAY_IMPORT.some((allowed) => target === allowed || under(target, allowed))
  )
    return {
      rule: 'team',
      message: `main/team imports only main/engine, main/team and the datastore's contracts, not ${target}`,
    };
  const lowerFile = LOWER.some((folder) => under(file, folder)) && !isTest(file);
  if (lowerFile && UPPER.some((folder) => under(target, folder)))
    return {
      rule: 'lower-layers',
      message: `${file.split('/')[1]} never imports team, service, server or desktop (${target})`,
    };
  if (under(file, 'main/testing') && under(target, 'main/desktop'))
    return { rule: 'test-support', message: `main/testing imports nothing of main/desktop (${target})` };
  const production =
    SIZE_CHECKED.some((folder) => under(file, folder)) && !isTest(file) && !isTestSupport(file);
  if (production && target !== undefined && isTestSupport(target))
    return { rule: 'test-support', message: `production code never imports test support (${target})` };
  return undefined;
}

/** Strongly connected components (Tarjan) of more than one file, or of a file importing itself. */
export function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const connect = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        connect(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || (graph.get(node) ?? []).includes(node)) found.push(component.sort());
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) connect(node);
  return found.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

/** Lines as an editor numbers them: a last line without its newline counts, an empty file has none. */
export const lineCount = (text: string) =>
  text === '' ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0);

/** Every problem of the tree at root, those tolerated by allowances apart. */
export function check(root: string, allowances: Allowances = NO_ALLOWANCES): Problem[] {
  const problems: Problem[] = [];
  const graph = new Map<string, string[]>();
  const importsByFile = new Map<string, Import[]>();
  for (const file of sourceFiles(root)) {
    const text = readFileSync(join(root, file), 'utf8');
    const imports = importsOf(root, file, text);
    importsByFile.set(file, imports);
    graph.set(file, [...new Set(imports.flatMap((imp) => (imp.target === undefined ? [] : [imp.target])))]);
    for (const imp of imports) {
      const problem = layerProblem(file, imp);
      if (problem !== undefined) problems.push({ file, line: imp.line, ...problem });
    }
    const oversize = SIZE_CHECKED.some((folder) => under(file, folder)) && !isTest(file);
    const lines = lineCount(text);
    const reasoned = text
      .split('\n')
      .slice(0, REASON_LINES)
      .some((line) => SIZE_REASON.test(line));
    if (oversize && lines > MAX_LINES && !reasoned && !allowances.oversize.includes(file))
      problems.push({
        file,
        line: 1,
        rule: 'size',
        message: `${lines} lines, over ${MAX_LINES}: split it, or say why in a '// size: <reason>' comment at its top`,
      });
    if (allowances.oversize.includes(file) && (lines <= MAX_LINES || reasoned))
      problems.push({
        file,
        line: 1,
        rule: 'size',
        message: 'no longer over the limit: remove it from KNOWN.oversize',
      });
  }
  for (const file of allowances.oversize)
    if (!graph.has(file))
      problems.push({ file, line: 1, rule: 'size', message: 'no such file: remove it from KNOWN.oversize' });

  const key = (files: readonly string[]) => [...files].sort().join(' ');
  const found = cycles(graph);
  const allowed = new Set(allowances.cycles.map(key));
  for (const cycle of found) {
    if (allowed.has(key(cycle))) continue;
    const file = cycle[0]!;
    const into = importsByFile
      .get(file)
      ?.find((imp) => imp.target !== undefined && cycle.includes(imp.target));
    problems.push({
      file,
      line: into?.line ?? 1,
      rule: 'cycle',
      message: `import cycle: ${cycle.join(' <-> ')}`,
    });
  }
  const current = new Set(found.map(key));
  for (const cycle of allowances.cycles)
    if (!current.has(key(cycle)))
      problems.push({
        file: cycle[0]!,
        line: 1,
        rule: 'cycle',
        message: `the cycle ${cycle.join(' <-> ')} is gone: remove it from KNOWN.cycles`,
      });
  return problems;
}

export const format = (problem: Problem) =>
  `${problem.file}:${problem.line}  ${problem.rule}: ${problem.message}`;

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const repo = fileURLToPath(new URL('..', import.meta.url));
  const root = resolve(process.argv[2] ?? repo);
  const problems = check(root, root === resolve(repo) ? KNOWN : NO_ALLOWANCES);
  for (const problem of problems) console.error(format(problem));
  if (problems.length > 0) {
    console.error(`check-layers: ${problems.length} problem(s) (see scripts/check-layers.ts for the rules)`);
    process.exit(1);
  }
  const allowed = root === resolve(repo) ? KNOWN : NO_ALLOWANCES;
  const known = allowed.cycles.length + allowed.oversize.length;
  console.log(
    `check-layers: ${sourceFiles(root).length} files, layering kept, no import cycle, no oversize file` +
      (known > 0 ? ` (${known} known problem(s) allowed for now: see KNOWN in scripts/check-layers.ts)` : ''),
  );
}
