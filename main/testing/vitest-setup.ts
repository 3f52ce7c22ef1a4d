/**
 * Set up before every test file of the node project (vitest.config.ts): a child process started
 * through main/testing (serve-process.ts) that logged a fault nobody handled fails the test that
 * was running. In this process, vitest itself fails the run on an unhandled rejection or error
 * (dangerouslyIgnoreUnhandledErrors stays off): scripts/unhandled-faults.test.ts plants both.
 */
import { afterEach } from 'vitest';
import { takeChildFaults } from './serve-process.ts';

afterEach(() => {
  const faults = takeChildFaults();
  if (faults.length > 0) {
    throw new Error(`a child process logged ${faults.length} fault(s) nobody handled:\n${faults.join('\n')}`);
  }
});
