/**
 * What runs beside each session's engine for the operators: metrics, team alert webhooks, history
 * retention, and the instance facts the savings estimate needs. One per process (counters and
 * delivery queues survive a switch from the demo to an account); attached to each session opened.
 *
 *   const ops = new Operations({ version, log });
 *   const sessions = createSessionFactory({ ..., enginePort: ops.enginePort });
 *   new RealCredentials({ ..., onCall: ops.metrics.onCall });  // the HTTP client's calls
 *   new ReaperService({ ..., sessions: ops.sessions(sessions), operations: ops });
 */

import type { Log } from '../../shared/log.ts';
import { WebhookDispatcher } from '../alerts/webhooks.ts';
import type { CleverApp } from '../engine/ports.ts';
import { ReaperMetrics } from '../metrics/reaper-metrics.ts';
import { AppFactsRecorder } from '../store/app-facts.ts';
import { HistoryRetention } from '../store/retention.ts';
import { observedPort } from './observed-port.ts';
import type { Session, SessionFactory, SessionOptions } from './session.ts';

export interface OperationsOptions {
  version: string;
  log?: Log;
  /** Tests: the webhooks' fetch and timings. */
  webhooks?: Partial<ConstructorParameters<typeof WebhookDispatcher>[0]>;
  /** Tests: the retention's timings. */
  retention?: { firstAfterMs?: number; everyMs?: number; batchSize?: number; pauseMs?: number };
}

export class Operations {
  readonly metrics: ReaperMetrics;
  readonly webhooks: WebhookDispatcher;
  private readonly options: OperationsOptions;
  private current: Session | null = null;

  constructor(options: OperationsOptions) {
    this.options = options;
    this.metrics = new ReaperMetrics(options.version);
    this.webhooks = new WebhookDispatcher({
      webhooks: () => this.current?.config.settings().webhooks ?? [],
      onOutcome: this.metrics.onWebhook,
      userAgent: `clever-reaper/${options.version}`,
      ...(options.log ? { log: options.log } : {}),
      ...options.webhooks,
    });
  }

  /** For SessionOptions.enginePort: instance facts recorded from every app read; demo calls counted. */
  readonly enginePort: NonNullable<SessionOptions['enginePort']> = (clever, { mode, store, clock }) => {
    const facts = new AppFactsRecorder(store);
    // Written in the background, one write at a time; the port logs a failure.
    const onApps = (apps: readonly CleverApp[]) => facts.record(apps, clock.now());
    return observedPort(clever, {
      onApps,
      ...(mode === 'demo' ? { onCall: this.metrics.onCall } : {}),
      ...(this.options.log ? { log: this.options.log } : {}),
    });
  };

  /** The same factory, each session it opens followed until it closes. */
  sessions(inner: SessionFactory): SessionFactory {
    const wrap = async (open: () => Promise<Session>): Promise<Session> => {
      const session = await open();
      const detach = this.attach(session);
      return {
        ...session,
        async close() {
          await detach();
          await session.close();
        },
      };
    };
    return {
      demo: () => wrap(() => inner.demo()),
      account: (clever) => wrap(() => inner.account(clever)),
    };
  }

  /** Follow a session: its engine's events feed the metrics and the webhooks; its history is pruned. */
  attach(session: Session): () => Promise<void> {
    this.current = session;
    const offMetrics = this.metrics.watch(session.engine, session.mode, () =>
      session.traffic.openConnections(),
    );
    const offWakes = session.traffic.onAccessLogWake(this.metrics.onAccessLogWake);
    const offWebhooks = this.webhooks.watch(session.engine);
    // The delivery state in the session's datastore: every instance of a team server shows the same.
    this.webhooks.keepStateIn(session.store);
    const retention = new HistoryRetention({
      store: session.store,
      now: () => session.clock.now(),
      retentionDays: () => session.config.settings().historyRetentionDays,
      // Team mode: one instance prunes (retention-lock.ts).
      ...(session.leases && session.store.retentionExclusive
        ? { exclusive: session.store.retentionExclusive(session.leases.instanceId, session.leases.leaseMs) }
        : {}),
      ...(this.options.log ? { log: this.options.log } : {}),
      ...this.options.retention,
    });
    retention.start();
    return async () => {
      offMetrics();
      offWakes();
      offWebhooks();
      await this.webhooks.flushed();
      if (this.current === session) this.webhooks.keepStateIn(null);
      await retention.stop();
      if (this.current === session) this.current = null;
    };
  }

  close(): void {
    this.webhooks.close();
  }
}
