/**
 * Routes and settings of the headless server in a JSON file of the data directory (the desktop uses
 * electron-store). Each write replaces the file atomically (write a temporary file, then rename), and
 * the file is readable by its owner only. A file that cannot be parsed is set aside, not overwritten
 * in silence: it is renamed `<name>.corrupt-<time>` and the store starts empty.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
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

  set(key: string, value: unknown): void {
    const next = { ...this.data, [key]: structuredClone(value) };
    const tmp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(tmp, `${JSON.stringify(next, null, 2)}\n`, { mode: 0o600 });
    renameSync(tmp, this.file);
    this.data = next;
  }
}
