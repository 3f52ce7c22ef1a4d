/**
 * When each app next needs a look (end of its grace period, start of a range, a fail timeout...):
 * a binary min-heap with lazy deletion, so that setting the due time of one app among 10,000 costs
 * O(log n) and the job can arm a single timer for the earliest.
 */
interface Entry {
  at: number;
  key: string;
  version: number;
}

export class DueQueue {
  private heap: Entry[] = [];
  private current = new Map<string, { at: number; version: number }>();
  private versions = 0;

  get size(): number {
    return this.current.size;
  }

  /** Set (or clear, with null) the due time of `key`. */
  set(key: string, at: number | null): void {
    const existing = this.current.get(key);
    if (at === null) {
      this.current.delete(key);
      return;
    }
    if (existing && existing.at === at) return;
    const version = ++this.versions;
    this.current.set(key, { at, version });
    this.push({ at, key, version });
  }

  get(key: string): number | null {
    return this.current.get(key)?.at ?? null;
  }

  /** The earliest due time, or null. */
  peek(): number | null {
    this.dropStale();
    return this.heap[0]?.at ?? null;
  }

  /** Remove and return every key due at or before `now`. */
  popDue(now: number): string[] {
    const out: string[] = [];
    for (;;) {
      this.dropStale();
      const top = this.heap[0];
      if (!top || top.at > now) break;
      this.pop();
      this.current.delete(top.key);
      out.push(top.key);
    }
    return out;
  }

  private dropStale(): void {
    for (;;) {
      const top = this.heap[0];
      if (!top) return;
      const live = this.current.get(top.key);
      if (live && live.version === top.version) return;
      this.pop();
    }
  }

  private push(entry: Entry): void {
    const h = this.heap;
    h.push(entry);
    let i = h.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (h[parent]!.at <= h[i]!.at) break;
      [h[parent], h[i]] = [h[i]!, h[parent]!];
      i = parent;
    }
    // Stale entries pile up when due times move often: rebuild once they outnumber live ones.
    if (h.length > 64 && h.length > 4 * this.current.size) this.rebuild();
  }

  private pop(): void {
    const h = this.heap;
    const last = h.pop()!;
    if (h.length === 0) return;
    h[0] = last;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let smallest = i;
      if (l < h.length && h[l]!.at < h[smallest]!.at) smallest = l;
      if (r < h.length && h[r]!.at < h[smallest]!.at) smallest = r;
      if (smallest === i) break;
      [h[smallest], h[i]] = [h[i]!, h[smallest]!];
      i = smallest;
    }
  }

  private rebuild(): void {
    const live = [...this.current].map(([key, v]) => ({ key, at: v.at, version: v.version }));
    live.sort((a, b) => a.at - b.at);
    this.heap = live;
  }
}
