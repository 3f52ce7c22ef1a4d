/**
 * `serve -- tokens create --name alice --role operator [--expires 30d]`, `tokens list`,
 * `tokens revoke NAME`: personal tokens, on the datastore the server uses (--data-dir's
 * people.sqlite, or the team's PostgreSQL with --database or $DATABASE_URL...). A created token is
 * printed once, here, and kept only as a salted hash; a revocation takes effect on every instance of a
 * team server at once (the bus), and within a second on a server of its own.
 */
import { parseArgs } from 'node:util';
import { describeError } from '../../shared/log.ts';
import { BOOTSTRAP_NAME, parseDuration, ROLES, type Role } from '../../shared/people.ts';
import { tokenCreateSchema } from '../../shared/people-schemas.ts';
import { chooseDatabase } from '../store/postgres/database-url.ts';
import { People } from './people.ts';
import { openPeopleStore } from './people-store.ts';

export const TOKENS_USAGE = `Usage: serve -- tokens <command> [--data-dir DIR] [--database URL]
  tokens create --name NAME --role viewer|operator|admin [--expires 30d|12h|90m]
                          a personal token, printed once (keep it: it is not kept, only its hash)
  tokens list             every token: name, role, created, expires, revoked
  tokens revoke NAME      the token stops working at once (its browser sessions end with it)`;

export interface TokensIo {
  out: (line: string) => void;
  err: (line: string) => void;
}

/** Run a `tokens` command; resolves with the exit status. */
export async function runTokens(
  argv: string[],
  env: NodeJS.ProcessEnv,
  defaultDataDir: () => string,
  io: TokensIo,
): Promise<number> {
  let values: Record<string, string | boolean | undefined>;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: true,
      options: {
        name: { type: 'string' },
        role: { type: 'string' },
        expires: { type: 'string' },
        'data-dir': { type: 'string' },
        database: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    io.err(`${describeError(error)}\n\n${TOKENS_USAGE}`);
    return 2;
  }
  const [command, ...rest] = positionals;
  if (values.help || !command) {
    io.out(TOKENS_USAGE);
    return values.help ? 0 : 2;
  }
  let opened: Awaited<ReturnType<typeof openPeopleStore>>;
  try {
    const database = chooseDatabase(values.database as string | undefined, env);
    opened = await openPeopleStore(
      (values['data-dir'] as string | undefined) ?? defaultDataDir(),
      database?.url ?? null,
    );
  } catch (error) {
    io.err(`tokens: ${describeError(error)}`);
    return 1;
  }
  // The bootstrap secret is not needed to manage tokens: a value no token can equal.
  const people = new People({ store: opened.store, bootstrap: `\0${Math.random()}` });
  try {
    switch (command) {
      case 'create': {
        const role = values.role as string | undefined;
        if (!role || !(ROLES as readonly string[]).includes(role))
          throw new Error(`--role: one of ${ROLES.join(', ')}`);
        const expiresAt = values.expires ? Date.now() + parseDuration(values.expires as string) : null;
        const input = tokenCreateSchema.parse({ name: values.name ?? '', role: role as Role, expiresAt });
        const { token, info } = await people.createToken(input, BOOTSTRAP_NAME);
        await opened.store.addAudit({
          at: Date.now(),
          by: BOOTSTRAP_NAME,
          via: 'cli',
          what: 'token',
          target: info.name,
          before: null,
          after: info,
        });
        io.out(
          `Token for ${info.name} (${info.role})${info.expiresAt ? `, expires ${new Date(info.expiresAt).toISOString()}` : ''}:`,
        );
        io.out(token);
        io.out('Shown this once: give it to them now (it is kept only as a hash).');
        return 0;
      }
      case 'list': {
        const list = await people.listTokens();
        if (list.length === 0) io.out('No personal token yet (the bootstrap token is an admin).');
        for (const t of list) {
          const state = t.revokedAt
            ? `revoked ${new Date(t.revokedAt).toISOString()}`
            : t.expiresAt && t.expiresAt <= Date.now()
              ? 'expired'
              : 'live';
          io.out(
            `${t.name.padEnd(20)} ${t.role.padEnd(8)} created ${new Date(t.createdAt).toISOString()} by ${t.createdBy}  expires ${t.expiresAt ? new Date(t.expiresAt).toISOString() : 'never'}  ${state}`,
          );
        }
        return 0;
      }
      case 'revoke': {
        const name = rest[0];
        if (!name) throw new Error('tokens revoke NAME: the name of the token to revoke');
        const revoked = await people.revokeToken(name.trim().toLowerCase());
        await opened.store.addAudit({
          at: Date.now(),
          by: BOOTSTRAP_NAME,
          via: 'cli',
          what: 'token',
          target: revoked.name,
          before: { ...revoked, revokedAt: null },
          after: revoked,
        });
        io.out(`Revoked ${revoked.name} (${revoked.role}): it no longer works, and its sessions have ended.`);
        return 0;
      }
      default:
        io.err(`tokens: unknown command '${command}'\n\n${TOKENS_USAGE}`);
        return 2;
    }
  } catch (error) {
    const problems = (error as { issues?: { path: unknown[]; message: string }[] }).issues;
    io.err(
      `tokens ${command}: ${problems ? problems.map((p) => `--${p.path.join('.')}: ${p.message}`).join('; ') : describeError(error)}`,
    );
    return 1;
  } finally {
    people.close();
    await opened.close();
  }
}
