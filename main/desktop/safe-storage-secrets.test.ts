/**
 * The keychain store with a fake safeStorage (a reversible "encryption" that marks its output, so a
 * test sees that what reaches the disk is never the plain text).
 */
import { existsSync, mkdtempSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../engine/clocks.ts';
import { RealCredentials } from '../service/real-credentials.ts';
import { SimulatedCloud } from '../simulator/model.ts';
import { startSimulatorServer } from '../simulator/server.ts';
import { KEYCHAIN, type SafeStoragePort, SafeStorageSecrets } from './safe-storage-secrets.ts';

class FakeSafeStorage implements SafeStoragePort {
  available = true;
  backend = 'gnome_libsecret';
  rotate = false;
  async isAsyncEncryptionAvailable() {
    return this.available;
  }
  async encryptStringAsync(text: string) {
    if (!this.available) throw new Error('no keychain');
    return Buffer.from(`ENC:${Buffer.from(text).toString('base64')}`);
  }
  async decryptStringAsync(encrypted: Buffer) {
    const text = encrypted.toString();
    if (!text.startsWith('ENC:'))
      throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.');
    return { result: Buffer.from(text.slice(4), 'base64').toString(), shouldReEncrypt: this.rotate };
  }
  getSelectedStorageBackend() {
    return this.backend;
  }
}

let dir: string;
let file: string;
let safeStorage: FakeSafeStorage;
const open = (platform: NodeJS.Platform = 'linux') =>
  SafeStorageSecrets.open({ file, safeStorage, platform });

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'reaper-keychain-'));
  file = join(dir, 'credentials.safe');
  safeStorage = new FakeSafeStorage();
});

describe('the keychain store of the desktop', () => {
  it('keeps a token encrypted, in a file only its owner can read, and reads it back at the next start', async () => {
    const store = await open();
    expect(store.description).toBe(KEYCHAIN);
    expect(store.load()).toBeNull();
    store.save('{"source":"pasted","token":"tok-123"}');
    expect(store.load()).toBe('{"source":"pasted","token":"tok-123"}');
    await store.flush();
    expect(readFileSync(file, 'utf8')).not.toContain('tok-123');
    expect(readFileSync(file, 'utf8')).toMatch(/^ENC:/);
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600);
    expect((await open()).load()).toBe('{"source":"pasted","token":"tok-123"}');
  });

  it('forgets the token: the file goes', async () => {
    const store = await open();
    store.save('secret');
    store.save(null);
    await store.flush();
    expect(store.load()).toBeNull();
    expect(existsSync(file)).toBe(false);
  });

  it('writes the last value when saves follow each other', async () => {
    const store = await open();
    store.save('one');
    store.save('two');
    await store.flush();
    expect((await open()).load()).toBe('two');
  });

  it('refuses to store without a keychain, and says it does not fall back to plain text', async () => {
    safeStorage.available = false;
    const store = await open('darwin');
    expect(() => store.save('secret')).toThrow(/not available: it is not stored in plain text/);
    await store.flush();
    expect(existsSync(file)).toBe(false);
  });

  it("refuses Linux's hard-coded key (basic_text) as if there were no keychain", async () => {
    safeStorage.backend = 'basic_text';
    const store = await open('linux');
    expect(store.unavailable).toMatch(/no OS keychain/);
    expect(() => store.save('secret')).toThrow(/no OS keychain/);
  });

  it('says why a kept token cannot be read (the keychain was reset), rather than losing it in silence', async () => {
    writeFileSync(file, 'not what safeStorage wrote');
    const store = await open();
    expect(() => store.load()).toThrow(/cannot be decrypted/);
    expect(readFileSync(file, 'utf8')).toBe('not what safeStorage wrote');
  });

  it('encrypts again a token the keychain asks to re-encrypt (a rotated key)', async () => {
    const first = await open();
    first.save('secret');
    await first.flush();
    // The file dated a minute back: a write now is told apart by its time, with no wait for the clock.
    const aMinuteAgo = new Date(Date.now() - 60_000);
    utimesSync(file, aMinuteAgo, aMinuteAgo);
    const before = statSync(file).mtimeMs;
    safeStorage.rotate = true;
    const store = await open();
    await store.flush();
    expect(store.load()).toBe('secret');
    expect(statSync(file).mtimeMs).toBeGreaterThan(before);
  });

  it('makes a connection that cannot be kept a problem the dashboard shows', async () => {
    safeStorage.available = false;
    const sim = await startSimulatorServer({
      cloud: new SimulatedCloud(systemClock),
      credentials: { apiTokens: ['api-token-abcdef'] },
    });
    try {
      const credentials = new RealCredentials({
        secrets: await open('darwin'),
        apiUrl: sim.url,
        env: {},
        home: dir,
      });
      await credentials.connect({ source: 'pasted', token: 'api-token-abcdef' });
      const status = await credentials.status();
      expect(status.state).toBe('connected');
      expect(status.problem).toMatch(
        /could not be kept for the next start: the OS keychain is not available/,
      );
      expect(JSON.stringify(status)).not.toContain('api-token-abcdef');
    } finally {
      await sim.close();
    }
  });
});
