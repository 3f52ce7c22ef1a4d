/**
 * What an audit entry changed, for people (the dashboard's Audit view): field by field, before →
 * after, nested objects flattened to dotted paths ("filters.pathPrefixes"), secrets never shown (a
 * field named like a token, a secret, a password or a hash reads "••••"; the server already keeps a
 * webhook's URL by its origin only). Pure.
 */

export interface AuditChange {
  /** The field's path, "" for a value that is not an object (the kill switch's true/false). */
  field: string;
  /** The value's text, or null when it did not exist (a creation) / no longer exists (a deletion). */
  before: string | null;
  after: string | null;
}

const SECRET = /token|secret|password|hash|salt|csrf|apikey|api_key/i;
export const HIDDEN = '••••';

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

function text(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function flatten(value: unknown, prefix: string, out: Map<string, string>): void {
  if (isObject(value)) {
    for (const [k, v] of Object.entries(value)) {
      const path = prefix ? `${prefix}.${k}` : k;
      if (SECRET.test(k)) out.set(path, HIDDEN);
      else flatten(v, path, out);
    }
    return;
  }
  if (value !== undefined) out.set(prefix, text(value));
}

/** The fields that differ between `before` and `after` (null: did not exist / no longer exists). */
export function auditChanges(before: unknown, after: unknown): AuditChange[] {
  const a = new Map<string, string>();
  const b = new Map<string, string>();
  if (before !== null && before !== undefined) flatten(before, '', a);
  if (after !== null && after !== undefined) flatten(after, '', b);
  const fields = [...new Set([...a.keys(), ...b.keys()])].sort();
  return fields.flatMap((field) => {
    const was = a.get(field) ?? null;
    const is = b.get(field) ?? null;
    return was === is ? [] : [{ field, before: was, after: is }];
  });
}
