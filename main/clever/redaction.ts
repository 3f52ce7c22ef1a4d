/**
 * Redaction of secrets from text that came from outside (a Clever Cloud error message), before it
 * reaches a log, the history, an export or the datastore.
 *
 * An exact copy is not the only way a secret leaks: a server may quote a prefix of it, lowercase or
 * uppercase it, percent-encode it, or echo an Authorization header in base64. So every piece of 8
 * characters or more of any of these forms is removed, case-insensitively:
 *
 * - each secret, and the concatenations an authorization is made of (`token:secret`,
 *   `consumerKey:consumerSecret`, `consumerSecret&secret`);
 * - each of those as is, percent-encoded (once and twice), in hexadecimal, and in base64 and base64url
 *   at each of the three byte alignments it can have inside a longer encoded text.
 *
 * A secret shorter than 8 characters (never a real Clever Cloud one) is removed when whole, from 4.
 */

/** The shortest piece of a secret that is removed: shorter ones are too likely to be ordinary text. */
export const SECRET_PIECE = 8;
const SHORTEST_SECRET = 4;
const MARK = '[redacted]';

export interface SecretSet {
  /** Values that must never be shown. */
  secrets: readonly string[];
  /** Concatenations of them (and of public parts, like an OAuth consumer key) sent on the wire. */
  combinations?: readonly string[];
}

/** The text with every form of every secret replaced by `[redacted]`. */
export function redactSecrets(text: string, set: SecretSet): string {
  return redactorFor(set).redact(text);
}

const cache = new WeakMap<SecretSet, Redactor>();

function redactorFor(set: SecretSet): Redactor {
  let r = cache.get(set);
  if (!r) {
    r = new Redactor(set);
    cache.set(set, r);
  }
  return r;
}

class Redactor {
  /** Lowercased pieces to find, by length. */
  private readonly pieces = new Map<number, Set<string>>();

  constructor(set: SecretSet) {
    const values = [...set.secrets, ...(set.combinations ?? [])].filter((s) => s.length >= SHORTEST_SECRET);
    for (const value of values) {
      for (const form of encodedForms(value)) this.add(form);
    }
  }

  private add(form: string): void {
    const lower = asciiLower(form);
    const size = Math.min(SECRET_PIECE, lower.length);
    if (size < SHORTEST_SECRET) return;
    let set = this.pieces.get(size);
    if (!set) {
      set = new Set();
      this.pieces.set(size, set);
    }
    for (let i = 0; i + size <= lower.length; i++) set.add(lower.slice(i, i + size));
  }

  redact(text: string): string {
    if (this.pieces.size === 0 || text.length === 0) return text;
    const lower = asciiLower(text);
    const marked = new Uint8Array(text.length);
    let any = false;
    for (const [size, set] of this.pieces) {
      for (let i = 0; i + size <= lower.length; i++) {
        if (set.has(lower.slice(i, i + size))) {
          marked.fill(1, i, i + size);
          any = true;
        }
      }
    }
    if (!any) return text;
    let out = '';
    for (let i = 0; i < text.length; i++) {
      if (!marked[i]) out += text[i];
      else if (i === 0 || !marked[i - 1]) out += MARK;
    }
    return out;
  }
}

/** Lowercase ASCII letters only: the length never changes, so positions match the original text. */
function asciiLower(text: string): string {
  return text.replace(/[A-Z]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 32));
}

/** The forms a value may take in a server's answer (see the top of this file). */
export function encodedForms(value: string): string[] {
  const bytes = Buffer.from(value, 'utf8');
  const forms = new Set<string>([
    value,
    encodeURIComponent(value),
    encodeURIComponent(encodeURIComponent(value)),
    bytes.toString('hex'),
  ]);
  for (let offset = 0; offset < 3; offset++) {
    const shifted = Buffer.concat([Buffer.alloc(offset), bytes]);
    // The characters that depend on the value's bits alone, whatever surrounds it.
    const first = Math.ceil((8 * offset) / 6);
    const end = Math.floor((8 * (offset + bytes.length)) / 6);
    for (const encoding of ['base64', 'base64url'] as const) {
      const piece = shifted.toString(encoding).slice(first, end);
      if (piece) forms.add(piece);
    }
  }
  return [...forms];
}

/** The longest message from outside that is kept (a log line, a history reason). */
export const EXTERNAL_TEXT_MAX = 300;

/**
 * A message written by someone else (a Clever Cloud error) made fit to keep: invisible and control
 * characters removed first (so none can split a secret to hide it), line breaks and tabs made spaces,
 * then every secret redacted, then cut at `max` characters.
 */
export function externalText(text: string, set: SecretSet | null, max = EXTERNAL_TEXT_MAX): string {
  const visible = text
    .replace(/[\t\r\n]+/g, ' ')
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it removes
    .replace(/[\u0000-\u001f\u007f-\u009f\u00ad\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/g, '')
    .trim();
  const clean = set ? redactSecrets(visible, set) : visible;
  return clean.length > max ? `${clean.slice(0, max)}…` : clean;
}
