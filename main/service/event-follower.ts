/**
 * Follows Clever Cloud's event socket for a session: a deployment that begins or ends on a managed
 * app makes the engine read that app at once (and once more a second later, in case the app's state
 * lags the event), so an app that finished starting is seen Up within a second rather than within
 * the 5-second pace. The socket is reopened after a backoff when it closes or dies; the paces still
 * do everything without it.
 */

import { describeError, type Log } from '../../shared/log.ts';
import type { CleverEvent } from '../clever/events.ts';
import { EventSocketRefused } from '../clever/events.ts';
import type { Engine } from '../engine/engine.ts';

export type EventSource = (signal: AbortSignal) => AsyncIterable<CleverEvent> | Iterable<CleverEvent>;

const RECHECK_MS = 1000;

export class EventFollower {
  private readonly engine: Engine;
  private readonly source: EventSource;
  private readonly log: Log | undefined;
  private readonly controller = new AbortController();
  private loop: Promise<void> = Promise.resolve();
  private timers = new Set<ReturnType<typeof setTimeout>>();
  connected = false;
  events = 0;

  constructor(options: {
    engine: Engine;
    source: EventSource;
    log?: Log;
  }) {
    this.engine = options.engine;
    this.source = options.source;
    this.log = options.log;
  }

  start(): void {
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.controller.abort();
    for (const t of this.timers) clearTimeout(t);
    await this.loop;
  }

  private async run(): Promise<void> {
    const { signal } = this.controller;
    let failures = 0;
    while (!signal.aborted) {
      try {
        for await (const event of this.source(signal)) {
          this.connected = true;
          failures = 0;
          this.handle(event);
        }
      } catch (error) {
        if (error instanceof EventSocketRefused) {
          this.log?.('warn', `${error.message}: following deployments by polling only`);
          return;
        }
        if (!signal.aborted) this.log?.('warn', `event socket: ${describeError(error)}`);
      }
      this.connected = false;
      if (signal.aborted) return;
      failures++;
      const delay = Math.min(60_000, 1000 * 1.25 ** failures);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, delay / 2 + Math.random() * (delay / 2));
        signal.addEventListener('abort', () => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  private handle(event: CleverEvent): void {
    if (!event.type.startsWith('DEPLOYMENT_') || !event.appId || !this.engine.get(event.appId)) return;
    this.events++;
    const appId = event.appId;
    this.engine.nudge(appId);
    const t = setTimeout(() => {
      this.timers.delete(t);
      this.engine.nudge(appId);
    }, RECHECK_MS);
    this.timers.add(t);
  }
}
