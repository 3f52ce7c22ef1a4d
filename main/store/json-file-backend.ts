/**
 * Routes and settings of the headless server in a JSON file of the data directory (the desktop uses
 * electron-store). Each write replaces the file atomically (write a temporary file, then rename), and
 * the file is readable by its owner only. A file that cannot be parsed is set aside, not overwritten
 * in silence: it is renamed `<name>.corrupt-<time>` and the store starts empty; `damage` says where
 * and why, for the ConfigStore to say it loudly and hold releases. A file that parses but is not the
 * shape the store writes (not an object, routes that are not a list, settings that are not an object)
 * is set aside the same way, like the desktop's settings file whose schema refuses it.
 */
import { chmodSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { InsufficientStorageError, UnavailableError } from '../../shared/api-errors.ts';
import { describeError } from '../../shared/log.ts';
import type { KeyValueBackend } from './config-store.ts';

export class JsonFileBackend implements KeyValueBackend {
  readonly file: string;
  private data: Record<string, unknown>;
  /** Set when the file could not be parsed at open: where it was moved. */
  readonly setAside: string | null = null;
  /** Where the unreadable file was moved and why it could not be read. */
  readonly damage: { file: string; reason: string } | null = null;

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
        this.data = shaped(JSON.parse(text));
        // Written by another tool or an older version with a wider mode: put it back to owner-only.
        if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
      } catch (error) {
        const aside = `${file}.corrupt-${Date.now()}`;
        renameSync(file, aside);
        chmodSync(aside, 0o600);
        this.setAside = aside;
        const reason = text.trim() === '' ? 'the file is empty' : describeError(error);
        this.damage = { file: aside, reason };
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

/** The file's content if it has the shape the store writes, else an error saying what is wrong. */
function shaped(parsed: unknown): Record<string, unknown> {
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new Error(
      `not an object of routes and settings (${Array.isArray(parsed) ? 'a list' : String(parsed)})`,
    );
  }
  const data = parsed as Record<string, unknown>;
  if (data.routes !== undefined && !Array.isArray(data.routes)) throw new Error('routes is not a list');
  const settings = data.settings;
  if (settings !== undefined && (!settings || typeof settings !== 'object' || Array.isArray(settings))) {
    throw new Error('settings is not an object');
  }
  return data;
}
