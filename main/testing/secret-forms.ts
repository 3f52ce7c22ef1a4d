/** Secrets as a server might quote them, and a search for any piece of them (the redaction tests). */

const b64 = (s: string) => Buffer.from(s).toString('base64');

/** The forms a server might quote a secret in (the list). */
export function leakedForms(token: string, secret: string, consumerSecret: string): string[] {
  return [
    token,
    secret,
    token.slice(0, 12),
    secret.slice(-12),
    token.toLowerCase(),
    secret.toUpperCase(),
    encodeURIComponent(token),
    encodeURIComponent(secret).toLowerCase(),
    b64(token),
    Buffer.from(secret).toString('base64url'),
    b64(`${token}:${secret}`),
    Buffer.from(`${consumerSecret}&${secret}`).toString('base64url'),
  ];
}

/** Every piece of 8 characters of any form still found in `text`, case-insensitively. */
export function piecesLeft(text: string, forms: readonly string[]): string[] {
  const lower = text.toLowerCase();
  const out: string[] = [];
  for (const form of forms) {
    for (let i = 0; i + 8 <= form.length; i++) {
      const piece = form.slice(i, i + 8);
      if (lower.includes(piece.toLowerCase())) out.push(piece);
    }
  }
  return out;
}
