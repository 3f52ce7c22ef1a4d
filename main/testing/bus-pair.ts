/**
 * The instances' bus for its tests: two stores on one PostgreSQL database (this instance's, which
 * the bus listens on, and another instance's), and what the bus heard. Test-only.
 */
import { PgBus, type PgBusOptions } from '../store/postgres/pg-bus.ts';
import { PostgresStore } from '../store/postgres/pg-store.ts';
import type { BusMessage } from '../store/team-contract.ts';

export interface BusPair {
  /** The store the bus listens on (instance 'mine'). */
  mine: PostgresStore;
  /** Another instance's store on the same database. */
  other: PostgresStore;
  bus: PgBus;
  /** Every message the bus gave its subscribers, in order. */
  heard: BusMessage[];
}

/** Opens the pair on `url`, runs `body`, then closes the bus and both stores (also when it throws). */
export async function withBusPair(
  url: string,
  body: (pair: BusPair) => Promise<void>,
  options: Partial<Omit<PgBusOptions, 'store'>> = {},
): Promise<void> {
  const [mine, other] = [await PostgresStore.open(url), await PostgresStore.open(url)];
  const bus = await PgBus.start({ instanceId: 'mine', ...options, store: mine });
  const heard: BusMessage[] = [];
  bus.subscribe((m) => heard.push(m));
  try {
    await body({ mine, other, bus, heard });
  } finally {
    await bus.close();
    await mine.close();
    await other.close();
  }
}
