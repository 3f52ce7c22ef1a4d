/**
 * What the calls of the contract are given: the service's state and doors, and nothing else. The
 * calls are grouped by subject (apps, routes, settings, account, reports), each group typed by the
 * contract (`Handlers`), so that the compiler names a call missing from the service.
 */
import type {
  AppView,
  CallName,
  CallOutputs,
  Owner,
  ParsedInput,
  ReaperStatus,
} from '../../../shared/api.ts';
import { UnavailableError } from '../../../shared/api-errors.ts';
import type { AppRecord } from '../../../shared/domain.ts';
import { NotFoundError } from '../../../shared/errors.ts';
import type { CredentialsManager } from '../credentials.ts';
import type { Operations } from '../operations.ts';
import type { Session, SessionFactory } from '../session.ts';

/** One handler per call of the contract, given the parsed input, answering the contract's output. */
export type Handlers = { [K in CallName]: (input: ParsedInput<K>) => Promise<CallOutputs[K]> };

/** The handlers of some calls (a group): `Pick<Handlers, ...>`, named once. */
export type HandlersOf<K extends CallName> = Pick<Handlers, K>;

export interface CallContext {
  /** The session running, or null (no account connected yet). */
  readonly session: Session | null;
  /** The sequence number of the last event emitted. */
  readonly seq: number;
  readonly sessions: SessionFactory;
  readonly credentials: CredentialsManager;
  /** The session, or "connect an account first". */
  need(): Session;
  status(): Promise<ReaperStatus>;
  view(s: Session, record: AppRecord): AppView;
  views(s: Session): AppView[];
  /** The owners' names for the views; every view is pushed again when one changed. */
  rememberOwners(owners: readonly Owner[]): void;
  /** Replace the session (one switch at a time). */
  switchTo(open: () => Promise<Session>): Promise<void>;
  /** Metrics and team alerts, or "not available in this shell". */
  operations(): Pick<Operations, 'metrics' | 'webhooks' | 'close'>;
}

/** The session, or "connect an account first". */
export function needSession(session: Session | null): Session {
  if (!session) {
    throw new UnavailableError('no Clever Cloud account is connected: connect one, or try the demo');
  }
  return session;
}

/** The record of a managed app, or NotFoundError. */
export function recordOf(s: Session, appId: string): AppRecord {
  const record = s.engine.get(appId);
  if (!record) throw new NotFoundError(`app ${appId}`);
  return record;
}
