/**
 * The desktop's SecretStore: a pasted token is encrypted with Electron's safeStorage (the OS
 * keychain: Keychain on macOS, DPAPI on Windows, libsecret or KWallet on Linux) into a file of the
 * data directory that only its owner can read.
 *
 * When there is no keychain, the token is not stored at all: Electron would fall back to a
 * hard-coded key on Linux ("basic_text"), which is plain text by another name. The operator is told
 * so (the dashboard shows the problem) and connects again at the next start.
 *
 * safeStorage's synchronous calls are deprecated (Electron 45), and SecretStore is synchronous: the
 * file is decrypted once when the store is opened, `load` answers from memory, and `save` encrypts
 * and writes in the background, one write after the other (`flush` waits for them).
 */
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { describeError, type Log } from '../../shared/log.ts';
import type { SecretStore } from '../service/real-credentials.ts';

/** The part of Electron's safeStorage this store uses. */
export interface SafeStoragePort {
  isAsyncEncryptionAvailable(): Promise<boolean>;
  encryptStringAsync(plainText: string): Promise<Buffer>;
  decryptStringAsync(encrypted: Buffer): Promise<{ shouldReEncrypt: boolean; result: string }>;
  /** Linux only: which password store Chromium picked. */
  getSelectedStorageBackend?(): string;
}

export interface SafeStorageSecretsOptions {
  file: string;
  safeStorage: SafeStoragePort;
  platform?: NodeJS.Platform;
  log?: Log;
}

export const KEYCHAIN = 'the OS keychain';

export class SafeStorageSecrets implements SecretStore {
  readonly description = KEYCHAIN;
  private readonly options: SafeStorageSecretsOptions;
  /** Why nothing can be stored here, or null when the keychain works. */
  readonly unavailable: string | null;
  private text: string | null;
  /** Why the stored text could not be read at open. */
  private readProblem: string | null;
  private writing: Promise<void> = Promise.resolve();

  private constructor(
    options: SafeStorageSecretsOptions,
    state: { unavailable: string | null; text: string | null; readProblem: string | null },
  ) {
    this.options = options;
    this.unavailable = state.unavailable;
    this.text = state.text;
    this.readProblem = state.readProblem;
  }

  /** Open the store: check the keychain, decrypt what is kept. Call it once the app is ready. */
  static async open(options: SafeStorageSecretsOptions): Promise<SafeStorageSecrets> {
    const unavailable = await whyUnavailable(options);
    let encrypted: Buffer | null = null;
    try {
      encrypted = await readFile(options.file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
        return new SafeStorageSecrets(options, {
          unavailable,
          text: null,
          readProblem: `${options.file} cannot be read: ${describeError(error)}`,
        });
      }
    }
    if (encrypted === null)
      return new SafeStorageSecrets(options, { unavailable, text: null, readProblem: null });
    if (unavailable) {
      return new SafeStorageSecrets(options, {
        unavailable,
        text: null,
        readProblem: `the stored token cannot be decrypted: ${unavailable}`,
      });
    }
    try {
      const { result, shouldReEncrypt } = await options.safeStorage.decryptStringAsync(encrypted);
      const store = new SafeStorageSecrets(options, { unavailable, text: result, readProblem: null });
      // The keychain rotated its key: write the token again under the new one.
      if (shouldReEncrypt) store.save(result);
      return store;
    } catch (error) {
      return new SafeStorageSecrets(options, {
        unavailable,
        text: null,
        readProblem: `the stored token cannot be decrypted (was the OS keychain reset?): ${describeError(error)}`,
      });
    }
  }

  load(): string | null {
    if (this.readProblem) throw new Error(this.readProblem);
    return this.text;
  }

  save(text: string | null): void {
    if (text === null) {
      this.text = null;
      this.readProblem = null;
      const file = this.options.file;
      this.writing = this.writing.then(() => rmSync(file, { force: true }));
      return;
    }
    if (this.unavailable) {
      throw new Error(`${this.unavailable}: it is not stored in plain text, connect again at the next start`);
    }
    this.text = text;
    this.readProblem = null;
    this.writing = this.writing.then(() => this.write(text));
  }

  /** Every write asked for so far is done (or has failed and been logged). */
  flush(): Promise<void> {
    return this.writing;
  }

  private async write(text: string): Promise<void> {
    const { file, safeStorage, log } = this.options;
    try {
      const encrypted = await safeStorage.encryptStringAsync(text);
      // A later save or a removal won the race: this value is not the one to keep.
      if (this.text !== text) return;
      mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
      const tmp = `${file}.${process.pid}.tmp`;
      writeFileSync(tmp, encrypted, { mode: 0o600 });
      renameSync(tmp, file);
    } catch (error) {
      log?.('error', `the token could not be written to ${KEYCHAIN}: ${describeError(error)}`);
    }
  }
}

async function whyUnavailable(options: SafeStorageSecretsOptions): Promise<string | null> {
  const { safeStorage } = options;
  const platform = options.platform ?? process.platform;
  if (platform === 'linux' && safeStorage.getSelectedStorageBackend) {
    const backend = safeStorage.getSelectedStorageBackend();
    if (backend === 'basic_text' || backend === 'unknown') {
      return 'no OS keychain (Secret Service or KWallet) was found on this desktop';
    }
  }
  try {
    if (!(await safeStorage.isAsyncEncryptionAvailable())) return `${KEYCHAIN} is not available`;
  } catch (error) {
    return `${KEYCHAIN} is not available: ${describeError(error)}`;
  }
  return null;
}
