/**
 * "A snapshot, then the pushed events by sequence", written once for the dashboard and the tray.
 *
 * Events carry a sequence number (increasing by one per event of the service; 0 for an event the
 * shell adds, which is never in a snapshot). A snapshot carries the number of the last event it
 * includes. While a snapshot is on its way, every event heard is kept; when it arrives, those it does
 * not include are given back to be applied again on top of it. A snapshot overtaken by a later one
 * is dropped. Pure: no timers, no I/O.
 */

export interface Sequenced<E> {
  event: E;
  seq: number;
}

export class EventReplay<E> {
  /** Events up to this number are in the state (from the snapshot, or applied since). */
  private floor = 0;
  /** The snapshot asked for last. */
  private ticket = 0;
  /** While a snapshot is on its way: every event heard. */
  private heardSince: Sequenced<E>[] | null = null;

  /** A snapshot is asked for: the ticket to give back with its answer. */
  begin(): number {
    this.heardSince = [];
    return ++this.ticket;
  }

  /** An event was heard (call for every pushed event, in the order heard). */
  heard(event: E, seq: number): void {
    this.heardSince?.push({ event, seq });
  }

  /**
   * The snapshot of `ticket` arrived, including the events up to `snapshotSeq`: the events heard
   * meanwhile that it does not include, in order, or null when a later snapshot was asked for since
   * (this one is then to be dropped). A sequence restarts with a restarted server: the floor follows
   * the snapshot down as well as up.
   */
  arrived(ticket: number, snapshotSeq: number): Sequenced<E>[] | null {
    if (ticket !== this.ticket) return null;
    const heard = this.heardSince ?? [];
    this.heardSince = null;
    this.floor = snapshotSeq;
    return heard.filter((p) => p.seq === 0 || p.seq > snapshotSeq);
  }

  /** The snapshot of `ticket` failed: true when it was the current one (the failure is to be told). */
  failed(ticket: number): boolean {
    if (ticket !== this.ticket) return false;
    this.heardSince = null;
    return true;
  }

  /**
   * Is an event not yet in the state? True for an event of the shell (seq 0) and for one newer than
   * every event applied so far, which then becomes the floor; false for one the state already includes.
   */
  fresh(seq: number): boolean {
    if (seq <= 0) return true;
    if (seq <= this.floor) return false;
    this.floor = seq;
    return true;
  }
}
