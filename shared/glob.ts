/**
 * Name patterns of rules: a glob where `*` stands for any run of characters (none included) and `?`
 * for exactly one; every other character stands for itself. Matching is case-sensitive (Clever Cloud
 * keeps the case of an application's name: `Shop-*` does not match `shop-front`).
 *
 * Each wildcard captures what it stood for, numbered from 1 in the pattern's order (`*-pr-*` on
 * `shop-front-pr-123` gives 1 = `shop-front`, 2 = `123`); the templates of a rule use them as `{1}`,
 * `{2}`... When a name can be matched in several ways, each `*` takes as few characters as it can,
 * from left to right. Matching runs in time proportional to the pattern's length times the name's
 * (a table, no backtracking), whatever the pattern.
 */

export const MAX_PATTERN_LENGTH = 200;
export const MAX_WILDCARDS = 9;

/** How many wildcards (`*` and `?`) a pattern holds: the captures it gives. */
export function wildcardCount(pattern: string): number {
  let n = 0;
  for (const c of pattern) if (c === '*' || c === '?') n++;
  return n;
}

/** The captures of the wildcards when `name` matches `pattern`, or null. */
export function globMatch(pattern: string, name: string): string[] | null {
  const p = [...pattern];
  const s = [...name];
  const width = s.length + 1;
  // ok[i * width + j]: the pattern from i matches the name from j.
  const ok = new Uint8Array((p.length + 1) * width);
  ok[p.length * width + s.length] = 1;
  for (let i = p.length - 1; i >= 0; i--) {
    const c = p[i];
    for (let j = s.length; j >= 0; j--) {
      let v = 0;
      if (c === '*') v = ok[(i + 1) * width + j]! || (j < s.length ? ok[i * width + j + 1]! : 0);
      else if (j < s.length && (c === '?' || c === s[j])) v = ok[(i + 1) * width + j + 1]!;
      ok[i * width + j] = v;
    }
  }
  if (!ok[0]) return null;
  // Walk the table: each `*` takes the fewest characters that still let the rest match.
  const captures: string[] = [];
  let j = 0;
  for (let i = 0; i < p.length; i++) {
    const c = p[i];
    if (c === '*') {
      let k = j;
      while (!ok[(i + 1) * width + k]) k++;
      captures.push(s.slice(j, k).join(''));
      j = k;
    } else {
      if (c === '?') captures.push(s[j]!);
      j++;
    }
  }
  return captures;
}

/**
 * A name made fit for one label of a host name: lower case, every run of other characters than
 * a-z, 0-9 and `-` made one `-`, no `-` at either end, at most 63 characters; `app` when nothing is left.
 */
export function dnsLabel(text: string): string {
  const label = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 63)
    .replace(/-$/, '');
  return label || 'app';
}

const PLACEHOLDER = /\{(name|[1-9])\}/g;

/** The placeholders a template uses that are not `{name}` nor `{1}`..`{count}`: for validation. */
export function unknownPlaceholders(template: string, captures: number): string[] {
  const bad: string[] = [];
  for (const m of template.matchAll(/\{([^}]*)\}/g)) {
    const key = m[1]!;
    if (key === 'name') continue;
    const n = Number(key);
    if (!/^[1-9]$/.test(key) || n > captures) bad.push(m[0]);
  }
  return bad;
}

/**
 * Fill a template: `{name}` is the app's name, `{1}`.. the captures of the pattern's wildcards. With
 * `dns`, each value is made a host-name label first (see dnsLabel).
 */
export function fillTemplate(
  template: string,
  name: string,
  captures: readonly string[],
  dns: boolean,
): string {
  return template.replace(PLACEHOLDER, (_, key: string) => {
    const value = key === 'name' ? name : (captures[Number(key) - 1] ?? '');
    return dns ? dnsLabel(value) : value;
  });
}
