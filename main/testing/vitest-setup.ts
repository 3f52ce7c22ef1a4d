/**
 * Set up before every test file of the node project (vitest.config.ts): a child process started
 * through main/testing (serve-process.ts) that logged a fault nobody handled fails the test that
 * was running. In this process, vitest itself fails the run on an unhandled rejection or error
 * (dangerouslyIgnoreUnhandledErrors stays off): scripts/unhandled-faults.test.ts plants both.
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach } from 'vitest';
import { takeChildFaults } from './serve-process.ts';

// Each test file's temporary folders (data folders, PostgreSQL clusters, sockets) under one of its
// own, removed after the file: a test that forgot its own, or was stopped, leaves nothing behind.
// Node.js reads TMPDIR at each os.tmpdir(); the children the tests start inherit it.
const scratch = mkdtempSync(join(tmpdir(), 'reaper-test-'));
// Open to other users, as the system's is (PostgreSQL's clusters run as the postgres user).
chmodSync(scratch, 0o755);
process.env.TMPDIR = scratch;
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

afterEach(() => {
  const faults = takeChildFaults();
  if (faults.length > 0) {
    throw new Error(`a child process logged ${faults.length} fault(s) nobody handled:\n${faults.join('\n')}`);
  }
});
