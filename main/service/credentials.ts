/**
 * Credentials, as the service needs them: what is known (never the secret), a port for the
 * credentials found or stored, and connecting an account from the dashboard. The real manager
 * (environment, clever-tools login, pasted token, safeStorage or an owner-only file) implements this
 * interface; `DemoOnlyCredentials` is the one of a server started with --demo.
 */
import { type ConnectInput, type CredentialsStatus, NO_CREDENTIALS } from '../../shared/api.ts';
import { ConflictError } from '../../shared/api-errors.ts';
import type { CleverCloudPort } from '../engine/ports.ts';

export interface CredentialsManager {
  /** What is known about the credentials; never a token or a secret. */
  status(): Promise<CredentialsStatus>;
  /** A Clever Cloud port for the credentials found or stored, or null when there are none. */
  open(): Promise<CleverCloudPort | null>;
  /**
   * Check the credentials (a login found on this machine, or a pasted token), keep them, and return a
   * port for them. Throws an InputError naming the field when they do not work.
   */
  connect(input: ConnectInput): Promise<CleverCloudPort>;
}

/** A server started with --demo: no account, and none can be connected without a restart. */
export class DemoOnlyCredentials implements CredentialsManager {
  async status(): Promise<CredentialsStatus> {
    return { ...NO_CREDENTIALS, problem: 'started with --demo: restart without it to connect an account' };
  }

  async open(): Promise<CleverCloudPort | null> {
    return null;
  }

  async connect(): Promise<CleverCloudPort> {
    throw new ConflictError('started with --demo: restart without it to connect an account');
  }
}

/**
 * Credentials already turned into a port by the caller: tests (a simulator behind the real client,
 * or in-process), and any shell that resolved them itself.
 */
export class FixedCredentials implements CredentialsManager {
  private readonly clever: CleverCloudPort;
  private readonly account: string | null;

  constructor(clever: CleverCloudPort, account: string | null = null) {
    this.clever = clever;
    this.account = account;
  }

  async status(): Promise<CredentialsStatus> {
    return { ...NO_CREDENTIALS, state: 'connected', account: this.account };
  }

  async open(): Promise<CleverCloudPort | null> {
    return this.clever;
  }

  async connect(): Promise<CleverCloudPort> {
    return this.clever;
  }
}
