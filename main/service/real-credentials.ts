/**
 * The credentials of a real Clever Cloud account, for both shells.
 *
 * Found, in order (main/clever/credentials.ts): CLEVER_TOKEN + CLEVER_SECRET, the clever-tools login,
 * a token the operator pasted. When the operator connects with an explicit choice ("use my
 * clever-tools login", "use this token"), that choice is kept and wins at the next start.
 *
 * A pasted token is kept in a SecretStore: a file only its owner can read in the headless server,
 * the OS keychain (Electron safeStorage) on the desktop. Credentials are checked with GET /v2/self
 * before they are used; no token or secret ever leaves this module except in the client's headers.
 */
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname } from 'node:path';
import { z } from 'zod';
import type { ConnectInput, CredentialsStatus } from '../../shared/api.ts';
import { assertNever } from '../../shared/domain.ts';
import { InputError } from '../../shared/errors.ts';
import { describeError, type Log } from '../../shared/log.ts';
import { CleverCallError } from '../../shared/port-errors.ts';
import { type CallRecord, CleverClient } from '../clever/client.ts';
import {
  type CleverEndpoints,
  type CredentialSource,
  type Credentials,
  cleverToolsCredentials,
  discoverCredentials,
  environmentCredentials,
  type LoginFileLocation,
  operatorCredentials,
  resolveEndpoints,
} from '../clever/credentials.ts';
import type { CleverCloudPort } from '../engine/ports.ts';
import type { CredentialsManager } from './credentials.ts';

/** Where a pasted token is kept. `load` returns null when nothing is kept. */
export interface SecretStore {
  /** In words, for the dashboard: "a file only its owner can read", "the OS keychain". */
  readonly description: string;
  load(): string | null;
  save(text: string | null): void;
}

/** A file readable by its owner only (mode 0600 in a 0700 folder). */
export class OwnerOnlyFileSecrets implements SecretStore {
  readonly description = 'a file only its owner can read';
  private readonly file: string;

  constructor(file: string) {
    this.file = file;
  }

  load(): string | null {
    try {
      return readFileSync(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  save(text: string | null): void {
    if (text === null) {
      rmSync(this.file, { force: true });
      return;
    }
    mkdirSync(dirname(this.file), { recursive: true, mode: 0o700 });
    writeFileSync(this.file, text, { mode: 0o600 });
    chmodSync(this.file, 0o600);
  }
}

/** What is kept: the operator's choice, and the pasted token when that is the choice. */
const keptSchema = z.discriminatedUnion('source', [
  z.object({ source: z.literal('clever-tools') }),
  z.object({ source: z.literal('environment') }),
  z.object({ source: z.literal('pasted'), token: z.string().min(1), secret: z.string().optional() }),
]);
type Kept = z.infer<typeof keptSchema>;

export interface RealCredentialsOptions {
  secrets: SecretStore;
  /** --api-url or a setting: another API base URL (a simulator, a proxy). */
  apiUrl: string | null;
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  home?: string;
  /** Every Clever Cloud call, for metrics. */
  onCall?: (call: CallRecord) => void;
  log?: Log;
}

export class RealCredentials implements CredentialsManager {
  private readonly options: RealCredentialsOptions;
  private readonly env: NodeJS.ProcessEnv;
  /** The API hosts and the OAuth consumer, from the flag and the environment, once. */
  private readonly endpoints: CleverEndpoints;
  private readonly loginFile: LoginFileLocation;
  private current: { credentials: Credentials; account: string | null } | null = null;
  private problem: string | null = null;
  private invalid = false;
  /** The credentials in use answered GET /v2/self (false while Clever Cloud could not be asked). */
  private checked = false;

  constructor(options: RealCredentialsOptions) {
    this.options = options;
    this.env = options.env ?? process.env;
    this.endpoints = resolveEndpoints(this.env, options.apiUrl);
    this.loginFile = {
      env: this.env,
      platform: options.platform ?? process.platform,
      home: options.home ?? homedir(),
    };
  }

  private kept(): Kept | null {
    let text: string | null;
    try {
      text = this.options.secrets.load();
    } catch (error) {
      this.problem = `the stored credentials cannot be read: ${describeError(error)}`;
      return null;
    }
    if (text === null) return null;
    try {
      const parsed = keptSchema.safeParse(JSON.parse(text));
      if (parsed.success) return parsed.data;
    } catch {
      // fall through
    }
    this.problem = 'the stored credentials are unreadable: connect again';
    return null;
  }

  /** Everything found on this machine, in the documented order. */
  private discover() {
    return discoverCredentials({ ...this.loginFile, endpoints: this.endpoints });
  }

  private pasted(token: string, secret: string | undefined): Credentials {
    const input = secret ? { kind: 'oauth1' as const, token, secret } : { kind: 'api-token' as const, token };
    return operatorCredentials(input, this.endpoints);
  }

  /** The credentials of one source only (the operator chose it), or null when it has none. */
  private async bySource(source: 'clever-tools' | 'environment'): Promise<Credentials | null> {
    const found =
      source === 'environment'
        ? environmentCredentials(this.env, this.endpoints)
        : await cleverToolsCredentials(this.loginFile, this.endpoints);
    return found.credentials;
  }

  private client(credentials: Credentials): CleverClient {
    return new CleverClient({
      credentials,
      onCall: this.options.onCall,
    });
  }

  /** Check credentials with GET /v2/self; a refusal is an InputError, an outage only a problem. */
  private async verify(credentials: Credentials, field: string): Promise<CleverClient> {
    const client = this.client(credentials);
    try {
      const self = await client.self();
      this.current = { credentials, account: self.email ?? self.name };
      this.problem = null;
      this.invalid = false;
      this.checked = true;
    } catch (error) {
      if (error instanceof CleverCallError && (error.kind === 'unauthorized' || error.kind === 'forbidden')) {
        this.invalid = true;
        throw new InputError([
          {
            field,
            message: `Clever Cloud refused these credentials (${error.status}): check them, or log in again`,
          },
        ]);
      }
      // Offline, or Clever Cloud down: keep them, say so, and let the engine retry.
      this.current = { credentials, account: null };
      this.checked = false;
      this.problem = `the credentials could not be checked yet: ${describeError(error)}`;
    }
    return client;
  }

  async open(): Promise<CleverCloudPort | null> {
    const kept = this.kept();
    let chosen: Credentials | null = null;
    if (kept?.source === 'pasted') chosen = this.pasted(kept.token, kept.secret);
    else if (kept) chosen = await this.bySource(kept.source);
    if (!chosen) {
      const found = await this.discover();
      chosen = found.credentials;
      if (!chosen) {
        this.problem = found.notes.join('; ') || null;
        return null;
      }
    }
    try {
      return await this.verify(chosen, 'credentials');
    } catch (error) {
      this.problem = describeError(error);
      this.options.log?.('warn', `Clever Cloud credentials (${chosen.detail}): ${this.problem}`);
      return null;
    }
  }

  async connect(input: ConnectInput): Promise<CleverCloudPort> {
    let credentials: Credentials | null;
    let kept: Kept;
    if (input.source === 'pasted') {
      const token = input.token.trim();
      const secret = input.secret?.trim();
      credentials = this.pasted(token, secret);
      kept = secret ? { source: 'pasted', token, secret } : { source: 'pasted', token };
    } else {
      credentials = await this.bySource(input.source);
      if (!credentials) {
        const what =
          input.source === 'environment'
            ? 'CLEVER_TOKEN and CLEVER_SECRET are not both set'
            : 'no usable clever-tools login was found (run `clever login`)';
        throw new InputError([{ field: 'source', message: what }]);
      }
      kept = { source: input.source };
    }
    const client = await this.verify(credentials, input.source === 'pasted' ? 'token' : 'source');
    try {
      this.options.secrets.save(JSON.stringify(kept));
    } catch (error) {
      this.problem = `connected, but the credentials could not be kept for the next start: ${describeError(error)}`;
    }
    return client;
  }

  async status(): Promise<CredentialsStatus> {
    const cleverTools = await cleverToolsCredentials(this.loginFile, this.endpoints);
    const source = this.current?.credentials.source;
    return {
      state: this.current && !this.invalid ? 'connected' : this.invalid ? 'invalid' : 'none',
      source: source ? shownSource(source) : null,
      account: this.current?.account ?? null,
      found: {
        environment: environmentCredentials(this.env, this.endpoints).credentials !== null,
        cleverTools: cleverTools.credentials !== null,
      },
      storage: source === 'operator' ? this.options.secrets.description : null,
      problem: this.problem,
      canConnect: true,
      ...(this.current && !this.invalid && !this.checked ? { unchecked: true } : {}),
    };
  }
}

/** A source as the dashboard names it (a demo's credentials are none of the operator's). */
function shownSource(source: CredentialSource): CredentialsStatus['source'] {
  switch (source) {
    case 'operator':
      return 'pasted';
    case 'environment':
    case 'clever-tools':
      return source;
    case 'demo':
      return null;
    default:
      return assertNever(source);
  }
}
