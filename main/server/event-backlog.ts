/**
 * The service's last events, kept for a stream that opens after its page's snapshot was taken (issue
 * 26: the server-rendered first screen carries a snapshot taken at GET /, and the page's event stream
 * opens a moment later): `GET /api/events?after=<seq>` (EVENTS_AFTER_PARAM) is sent the events after that snapshot first,
 * so the page does not ask for a snapshot again. When the backlog no longer reaches back that far,
 * nothing is replayed: the page sees the gap in the sequence and asks for a snapshot, as it would.
 */
import type { ReaperEvent } from '../../shared/api.ts';

export class EventBacklog {
  private events: { event: ReaperEvent; seq: number }[] = [];
  /** Events up to this number are no longer kept. */
  private dropped = 0;
  private readonly max: number;

  constructor(max = 2000) {
    this.max = max;
  }

  /** A pushed event (those of the shell, seq 0, are never in a snapshot: not kept). */
  push(event: ReaperEvent, seq: number): void {
    if (seq <= 0) return;
    const last = this.events.at(-1);
    // A sequence that starts again (the service was replaced): what came before is another one's.
    if (last && seq <= last.seq) {
      this.events = [];
      this.dropped = seq - 1;
    }
    this.events.push({ event, seq });
    if (this.events.length > this.max * 1.25) {
      const cut = this.events.length - this.max;
      this.dropped = this.events[cut - 1]!.seq;
      this.events = this.events.slice(cut);
    }
  }

  /** The events after `seq`, in order; null when some of them are no longer kept. */
  after(seq: number): { event: ReaperEvent; seq: number }[] | null {
    if (!Number.isSafeInteger(seq) || seq < this.dropped) return null;
    return this.events.filter((e) => e.seq > seq);
  }
}
