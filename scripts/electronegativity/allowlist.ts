/**
 * The verdict of the Electron security scan (npm run security:electron): every finding of
 * electronegativity must be explained by an entry of security/electronegativity-allowlist.json,
 * and every entry must still explain a finding. Pure: scan.ts produces the findings, this decides.
 *
 * An entry names the check, the file, a piece of the flagged code (`match`, a substring of the
 * source line the scanner quotes, or of the CSP for CSP checks) and why the finding is safe. An
 * entry that explains nothing any more fails too: it would otherwise hide the next finding of
 * that check in that file, and a scan that silently stopped finding things would look clean.
 */

export const SEVERITIES = ['INFORMATIONAL', 'LOW', 'MEDIUM', 'HIGH'] as const;
export type Severity = (typeof SEVERITIES)[number];

/** One finding of the scanner, as scan.ts normalises it. */
export interface Finding {
  /** The check's id, e.g. NODE_INTEGRATION_JS_CHECK. */
  check: string;
  /** Relative to the scanned folder (the repository's layout); "N/A" for app-wide findings. */
  file: string;
  line: number;
  column: number;
  severity: Severity;
  confidence: string;
  /** The scanner says a human must look (its "Review Required"). */
  review: boolean;
  description: string;
  /** The source line the scanner quotes (or the CSP, for CSP checks); "" when it quotes nothing. */
  text: string;
  /** The check's documentation. */
  url: string;
}

export interface AllowEntry {
  check: string;
  file: string;
  match: string;
  why: string;
}

export interface Verdict {
  /** Findings with the entry that explains them. */
  explained: { finding: Finding; entry: AllowEntry }[];
  /** Findings no entry explains: the scan fails. */
  unexplained: Finding[];
  /** Entries that explain no finding: the scan fails. */
  stale: AllowEntry[];
}

/** A real reason is a sentence or more, not "ok" or "false positive". */
export const MIN_WHY_LENGTH = 40;

/** A finding to look for: the check, the file, a piece of the quoted line. */
export type FindingPattern = Omit<AllowEntry, 'why'>;

/**
 * The patterns of a JSON file (`{ "findings": [...] }`), or an error naming what is wrong. `match`
 * may be empty only for app-wide findings (file "N/A"), which quote nothing: anywhere else an
 * empty match would explain every finding of the check in the file, today's and tomorrow's.
 */
export function parsePatterns(raw: unknown, what: string): FindingPattern[] {
  const entries = (raw as { findings?: unknown } | null)?.findings;
  if (!Array.isArray(entries)) throw new Error(`${what} must be an object with a "findings" array`);
  return entries.map((entry: unknown, i) => {
    const e = entry as Partial<Record<keyof AllowEntry, unknown>> | null;
    const where = `${what}, entry ${i + 1}`;
    for (const key of ['check', 'file', 'match'] as const) {
      if (typeof e?.[key] !== 'string') throw new Error(`${where}: "${key}" must be a string`);
    }
    const { check, file, match } = e as FindingPattern;
    if (check.trim() === '' || file.trim() === '')
      throw new Error(`${where}: "check" and "file" must be given`);
    if (match.trim() === '' && file !== 'N/A') {
      throw new Error(`${where} (${check} in ${file}): "match" must quote a piece of the flagged line`);
    }
    return { check, file, match };
  });
}

/** The allowlist file's entries, or an error naming what is wrong with it. */
export function parseAllowlist(raw: unknown, what = 'the allowlist'): AllowEntry[] {
  const patterns = parsePatterns(raw, what);
  const entries = (raw as { findings: { why?: unknown }[] }).findings;
  return patterns.map((pattern, i) => {
    const why = entries[i]?.why;
    if (typeof why !== 'string' || why.trim().length < MIN_WHY_LENGTH) {
      throw new Error(
        `${what}, entry ${i + 1} (${pattern.check} in ${pattern.file}): "why" must say why it is safe, in a sentence or more`,
      );
    }
    return { ...pattern, why };
  });
}

export function explains(entry: FindingPattern, finding: Finding): boolean {
  return entry.check === finding.check && entry.file === finding.file && finding.text.includes(entry.match);
}

export function judge(findings: readonly Finding[], entries: readonly AllowEntry[]): Verdict {
  const explained: Verdict['explained'] = [];
  const unexplained: Finding[] = [];
  const used = new Set<AllowEntry>();
  for (const finding of findings) {
    const entry = entries.find((e) => explains(e, finding));
    if (entry) {
      explained.push({ finding, entry });
      used.add(entry);
    } else {
      unexplained.push(finding);
    }
  }
  return { explained, unexplained, stale: entries.filter((e) => !used.has(e)) };
}

export function passed(verdict: Verdict): boolean {
  return verdict.unexplained.length === 0 && verdict.stale.length === 0;
}

/** Highest severity first, then by file and line. */
export function bySeverity(a: Finding, b: Finding): number {
  return (
    SEVERITIES.indexOf(b.severity) - SEVERITIES.indexOf(a.severity) ||
    a.file.localeCompare(b.file) ||
    a.line - b.line ||
    a.check.localeCompare(b.check)
  );
}

export function describeFinding(f: Finding): string {
  const where = f.file === 'N/A' ? 'the whole app' : `${f.file}:${f.line}:${f.column}`;
  const quoted = f.text ? `\n      ${f.text.length > 160 ? `${f.text.slice(0, 157)}...` : f.text}` : '';
  return `${f.severity} ${f.check} at ${where} (${f.confidence}${f.review ? ', review required' : ''}): ${f.description}${quoted}\n      ${f.url}`;
}

/** The report printed when the scan fails: what to fix, or how to explain it. */
export function failureReport(verdict: Verdict, allowlistPath: string): string {
  const lines: string[] = [];
  if (verdict.unexplained.length > 0) {
    lines.push(`${verdict.unexplained.length} finding(s) not explained by ${allowlistPath}:`);
    for (const f of [...verdict.unexplained].sort(bySeverity)) lines.push(`  - ${describeFinding(f)}`);
    lines.push(
      'Fix the code (preferred), or, when you have checked by reading the code that the finding is safe,',
      `add an entry to ${allowlistPath}: { "check", "file", "match" (a piece of the quoted line), "why" }.`,
    );
  }
  if (verdict.stale.length > 0) {
    lines.push(`${verdict.stale.length} allowlist entr(y/ies) explain no finding any more; remove them:`);
    for (const e of verdict.stale)
      lines.push(`  - ${e.check} in ${e.file} matching ${JSON.stringify(e.match)}`);
  }
  return lines.join('\n');
}
