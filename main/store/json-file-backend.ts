/**
 * Routes and settings of the headless server in a JSON file of the data directory (the desktop uses
 * electron-store). Each write replaces the file atomically (write a temporary file, then rename), and
 * the file is readable by its owner only. A file that cannot be parsed is set aside, not overwritten
 * in silence: it is renamed `<name>.corrupt-<time>` and the store starts empty; `damage` says where
 * and why, for the ConfigStore to say it loudly and hold releases. A file that parses but is not the
 * shape the store writes (not an object, routes that are not a list, settings that are not an object)
 * is set aside the same way, like the desktop's settings file whose schema refuses it.
 */
import { chmodSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
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
        const reason = text.trim() === '' ? 'the file is empty' : describe(error);
        this.damage = { file: aside, reason };
      }
    }
  }

  get(key: string): unknown {
    return structuredClone(this.data[key]);
  }

  set(key: string, value: unknown): void {
    const next = { ...this.data, [key]: structuredClone(value) };
    const tmp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(tmp, `${JSON.stringify(next, null, 2)}\n`, { mode: 0o600 });
    renameSync(tmp, this.file);
    this.data = next;
  }
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

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
