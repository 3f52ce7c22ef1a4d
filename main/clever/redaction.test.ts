import { describe, expect, it } from 'vitest';
import { externalText, redactSecrets, type SecretSet } from './redaction.ts';

const TOKEN = 'Planted/Token+5bd1f0e2c7a94d3b';
const SECRET = 'Planted/Secret+8e61a2f3b9c04d7e';
const set: SecretSet = { secrets: [TOKEN, SECRET], combinations: [`${TOKEN}:${SECRET}`] };
const b64 = (s: string) => Buffer.from(s).toString('base64');
const b64url = (s: string) => Buffer.from(s).toString('base64url');

/** Every piece of 8 characters of `form` still in `text`, case-insensitively. */
function piecesLeft(text: string, form: string): string[] {
  const lower = text.toLowerCase();
  const out: string[] = [];
  for (let i = 0; i + 8 <= form.length; i++) {
    if (lower.includes(form.slice(i, i + 8).toLowerCase())) out.push(form.slice(i, i + 8));
  }
  return out;
}

describe('redaction', () => {
  it.each([
    ['an exact copy', TOKEN],
    ['a prefix', SECRET.slice(0, 12)],
    ['a piece from the middle', SECRET.slice(5, 15)],
    ['lowercase', TOKEN.toLowerCase()],
    ['uppercase', SECRET.toUpperCase()],
    ['percent-encoded', encodeURIComponent(SECRET)],
    ['percent-encoded, lowercase hex', encodeURIComponent(SECRET).toLowerCase()],
    ['percent-encoded twice', encodeURIComponent(encodeURIComponent(TOKEN))],
    ['base64', b64(SECRET)],
    ['base64url', b64url(TOKEN)],
    ['base64 of token:secret (a Basic header)', b64(`${TOKEN}:${SECRET}`)],
    ['hex', Buffer.from(SECRET).toString('hex')],
  ])('removes %s', (_, form) => {
    const out = redactSecrets(`refused: "${form}" is not valid`, set);
    expect(out).toContain('[redacted]');
    expect(out.startsWith('refused: "')).toBe(true);
    expect(out.endsWith('" is not valid')).toBe(true);
    expect(piecesLeft(out, form)).toEqual([]);
  });

  it('removes base64 of a secret inside a longer encoded text, at any byte alignment', () => {
    for (const prefix of ['', 'a', 'ab', 'abc', 'user:', 'oauth_token=']) {
      const encoded = b64(`${prefix}${SECRET} and more`);
      const out = redactSecrets(encoded, set);
      expect(out, prefix).toContain('[redacted]');
      // What is left is the prefix's and the tail's own characters, and at most one mixed one each side.
      const left = out.replace('[redacted]', '');
      expect(left.length, prefix).toBeLessThanOrEqual(b64(prefix).replace(/=+$/, '').length + 1 + 16);
    }
  });

  it('leaves ordinary text alone, and short pieces of a secret too', () => {
    const text = 'Application app_0a1b2c3d not found (error 4004): Planted is fine, so is 5bd1f0e';
    expect(redactSecrets(text, set)).toBe(text);
  });

  it('keeps an outside message on one line, without invisible characters that could split a secret', () => {
    const split = `${SECRET.slice(0, 10)}\u200b${SECRET.slice(10)}`;
    const out = externalText(`line one\nline two\u001b[31m ${split}\u0000`, set);
    expect(out).toBe('line one line two[31m [redacted]');
    expect(externalText('x'.repeat(1000), set)).toHaveLength(301);
  });
});
