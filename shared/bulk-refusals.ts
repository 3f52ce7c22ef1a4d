/**
 * The refusals of one app of a bulk action, as the service writes them (in English, kept as written
 * in the API), read back into a key and its parts so that the dashboard can say them in its
 * language: each pattern is anchored and matches the message the service throws word for word.
 * Apart from shared/bulk.ts: the dashboard's first screen imports this, and zod stays out of it.
 */
export const BULK_REFUSALS = {
  inError: /^the app is in Error \((?<cause>.+)\): reset it once the problem is fixed$/,
  wentToError: /^the app went to Error: (?<cause>.+)$/,
  releasedWhileWaking: /^the app was released while waking up$/,
  notFound: /^app (?<appId>\S+) not found$/,
  noAccount: /^no Clever Cloud account is connected: connect one, or try the demo$/,
  cleverUnreachable: /^Clever Cloud could not be reached or refused the call: (?<detail>.+)$/,
} as const;
export type BulkRefusalKey = keyof typeof BULK_REFUSALS;

/** A refusal's key and parts, or null for a refusal of no known form (shown as written). */
export function readRefusal(reason: string): { key: BulkRefusalKey; parts: Record<string, string> } | null {
  for (const [key, pattern] of Object.entries(BULK_REFUSALS) as [BulkRefusalKey, RegExp][]) {
    const m = pattern.exec(reason);
    if (m) return { key, parts: { ...m.groups } };
  }
  return null;
}
