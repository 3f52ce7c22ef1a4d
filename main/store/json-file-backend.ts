/**
 * Routes and settings of the headless server in a JSON file of the data directory (the desktop uses
 * electron-store). Each write replaces the file atomically (write a temporary file, then rename), and
 * the file is readable by its owner only. A file that cannot be parsed is set aside, not overwritten
 * in silence: it is renamed `<name>.corrupt-<time>` and the store starts empty.
 */
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { InsufficientStorageError, UnavailableError } from '../../shared/api-errors.ts';
import type { KeyValueBackend } from './config-store.ts';

export class JsonFileBackend implements KeyValueBackend {
  readonly file: string;
  private data: Record<string, unknown>;
  /** Set when the file could not be parsed at open: where it was moved. */
  readonly setAside: string | null = null;

  constructor(file: string) {
    this.file = file;
    let text: string | null = null;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    this.data = {};
    if (text !== null) {
      try {
        const parsed: unknown = JSON.parse(text);
        if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
        this.data = parsed as Record<string, unknown>;
      } catch {
        const aside = `${file}.corrupt-${Date.now()}`;
        renameSync(file, aside);
        this.setAside = aside;
      }
    }
  }

  get(key: string): unknown {
    return structuredClone(this.data[key]);
  }

  /**
   * Nothing changes unless the whole file is written: on a failure the temporary file is removed,
   * the file and the values read stay as they were, and the error says what to do (a full disk is an
   * InsufficientStorageError, 507; a folder that cannot be written an UnavailableError, 503).
   */
  set(key: string, value: unknown): void {
    const next = { ...this.data, [key]: structuredClone(value) };
    const tmp = `${this.file}.${process.pid}.tmp`;
    try {
      writeFileSync(tmp, `${JSON.stringify(next, null, 2)}\n`, { mode: 0o600 });
      renameSync(tmp, this.file);
    } catch (error) {
      try {
        rmSync(tmp, { force: true });
      } catch {
        // Left behind; the next write replaces it.
      }
      throw writeFailure(error, this.file);
    }
    this.data = next;
  }
}

/** A failed write as an error for people, when the system said why; anything else as it is. */
function writeFailure(error: unknown, file: string): unknown {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (code === 'ENOSPC' || code === 'EDQUOT') {
    return new InsufficientStorageError(
      `the change was not saved: the disk holding ${basename(file)} (the data folder) is full (${code}). Nothing was changed; free some space and try again`,
    );
  }
  if (code === 'EROFS' || code === 'EACCES' || code === 'EPERM' || code === 'EIO') {
    return new UnavailableError(
      `the change was not saved: ${basename(file)} in the data folder cannot be written (${code}). Nothing was changed; check the data folder and try again`,
    );
  }
  return error;
}
