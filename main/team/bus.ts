/**
 * The bus between the instances of team mode: publish and subscribe, nothing else. What a message
 * names is read through the datastore (store/team-contract.ts, `TeamStore`). A port, so that the team
 * wing, the engine and the service never import a database client: on PostgreSQL it is LISTEN/NOTIFY
 * on one dedicated connection (store/postgres/pg-bus.ts), the changes of the datastore announced by
 * its triggers; SQLite has one instance only, and no bus (team-sync.ts is then not started).
 */
import type { BusMessage, ForwardedRequest } from '../store/team-contract.ts';

export interface TeamBus {
  /** Hear every message, in the order received; returns the unsubscription. */
  subscribe(listener: (message: BusMessage) => void): () => void;
  /** Whether the bus listens now. */
  readonly listening: boolean;
  /** Hand a request to the owner's holder: kept until it acted on it (a `request` message tells it). */
  publish(request: ForwardedRequest): Promise<void>;
  /** Stop listening. */
  close(): Promise<void>;
}
