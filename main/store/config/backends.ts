/** Where the routes, rules and settings are kept: a key-value file, a Map, or a shared datastore's snapshot. */

/** The few calls the store needs from electron-store / conf. */
export interface KeyValueBackend {
  get(key: string): unknown;
  set(key: string, value: unknown): void;
  /** A file that could not be read at open and was set aside (the store then starts empty). */
  readonly damage?: { file: string; reason: string } | null;
}

export class MemoryBackend implements KeyValueBackend {
  private data = new Map<string, unknown>();
  get(key: string): unknown {
    return structuredClone(this.data.get(key));
  }
  set(key: string, value: unknown): void {
    this.data.set(key, structuredClone(value));
  }
}

/** What a shared backend's values are seen through: read at open, changed only by save(). */
export class SnapshotBackend implements KeyValueBackend {
  private readonly values: Map<string, unknown>;
  constructor(values: Map<string, unknown>) {
    this.values = values;
  }
  get(key: string): unknown {
    return structuredClone(this.values.get(key));
  }
  set(): void {
    throw new Error('routes and settings in a shared datastore change through ConfigStore.save()');
  }
  replace(key: string, value: unknown): void {
    this.values.set(key, structuredClone(value));
  }
}
