/**
 * Which PostgreSQL database team mode uses: `--database URL`, else the DATABASE_URL environment
 * variable, else POSTGRESQL_ADDON_URI, the connection URI a Clever Cloud PostgreSQL add-on gives the
 * applications linked to it (Clever Cloud's own Node.js example connects with it:
 * CleverCloud/expressjs-postgresql-example, db.js, `new pg.Pool({ connectionString:
 * process.env.POSTGRESQL_ADDON_URI })`; the reference page of CleverCloud/documentation lists the
 * add-on's HOST/PORT/DB/USER/PASSWORD variables, not the URI: unconfirmed there). None of
 * them: the embedded SQLite datastore, as before.
 */

export interface DatabaseChoice {
  url: string;
  /** Where it came from, to say so in the logs. */
  source: '--database' | 'DATABASE_URL' | 'POSTGRESQL_ADDON_URI';
}

const SOURCES = ['DATABASE_URL', 'POSTGRESQL_ADDON_URI'] as const;

/** The database chosen, or null for SQLite. Throws when the URL given is not a PostgreSQL one. */
export function chooseDatabase(flag: string | undefined, env: NodeJS.ProcessEnv): DatabaseChoice | null {
  const given: DatabaseChoice | null =
    flag !== undefined
      ? { url: flag, source: '--database' }
      : (SOURCES.map((name) => (env[name] ? { url: env[name], source: name } : null)).find((c) => c) ?? null);
  if (!given) return null;
  const parsed = URL.canParse(given.url) ? new URL(given.url) : null;
  if (!parsed || (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:')) {
    throw new Error(
      `${given.source}: not a postgres:// or postgresql:// URL (${redactDatabaseUrl(given.url)})`,
    );
  }
  return given;
}

/** The URL without its password, for logs and messages. */
export function redactDatabaseUrl(url: string): string {
  if (!URL.canParse(url)) return '<unparsable URL>';
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  for (const key of [...parsed.searchParams.keys()]) {
    if (/pass|secret|key/i.test(key)) parsed.searchParams.set(key, '***');
  }
  return parsed.toString();
}
