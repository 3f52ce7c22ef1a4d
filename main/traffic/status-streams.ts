/**
 * The live-status streams of the waking page: the state of an app's wake as server-sent events, at
 * each change and every second. Capped in total and per client address (more get 503 with
 * Retry-After; the page reloads by itself), and a client that does not read is dropped: once its
 * unread output stays above `statusUnreadBytes` for `statusStallMs`, nothing more is written to it
 * and it is closed, so a stream holds at most that much memory.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { CONSOLE_LABELS } from '../../shared/domain.ts';
import type { Log } from '../../shared/log.ts';
import type { Engine } from '../engine/engine.ts';
import type { Clock } from '../engine/ports.ts';
import { clientAddress, Places, type ProxyLimits } from './limits.ts';

export interface StatusStreamsOptions {
  engine: Engine;
  clock: Clock;
  limits: ProxyLimits;
  /** Real time between two status events. */
  everyMs: number;
  log?: Log;
  /** Up is said once the app answered (ready-gate.ts): until then, the page keeps waiting. */
  gate?: {
    isOpen(appId: string, upAt: number | null): boolean;
    onOpen(listener: (appId: string) => void): () => void;
  };
}

export class StatusStreams {
  private readonly options: StatusStreamsOptions;
  private readonly places: Places;
  private readonly live = new Set<ServerResponse>();
  /** Streams dropped because their client did not read. */
  dropped = 0;

  constructor(options: StatusStreamsOptions) {
    this.options = options;
    const { limits } = options;
    this.places = new Places(
      () => limits.maxStatusStreamsPerAddress,
      () => limits.maxStatusStreams,
    );
  }

  get open(): number {
    return this.live.size;
  }

  close(): void {
    for (const res of this.live) res.destroy();
    this.live.clear();
  }

  serve(appId: string, req: IncomingMessage, res: ServerResponse): void {
    const { engine, clock, limits } = this.options;
    const address = clientAddress(req.socket);
    if (!this.places.take(address)) {
      res.writeHead(503, {
        'content-type': 'text/plain; charset=utf-8',
        'cache-control': 'no-store',
        'retry-after': '5',
      });
      res.end('Clever Reaper: too many live-status streams; the page reloads by itself');
      return;
    }
    this.live.add(res);
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
    });
    let fullSince: number | null = null;
    const send = () => {
      if (res.writableLength > limits.statusUnreadBytes) {
        fullSince ??= Date.now();
        if (Date.now() - fullSince >= limits.statusStallMs) {
          this.dropped++;
          if (this.dropped === 1 || this.dropped % 100 === 0)
            this.options.log?.(
              'warn',
              `wake proxy: ${this.dropped} live-status client(s) that did not read dropped`,
            );
          res.destroy();
        }
        return;
      }
      fullSince = null;
      const r = engine.get(appId);
      const startedAt = r?.firstStartAskedAt ?? r?.stateSince ?? null;
      const answering = r?.state !== 'Up' || (this.options.gate?.isOpen(appId, r.cameUpAt) ?? true);
      const state = r && answering ? r.state : r ? 'WaitingForUp' : 'Up';
      const payload = {
        state,
        label: CONSOLE_LABELS[state],
        cause: r?.cause ?? null,
        startedAt,
        elapsedMs: startedAt === null ? 0 : clock.now() - startedAt,
      };
      res.write(`event: status\ndata: ${JSON.stringify(payload)}\n\n`);
    };
    send();
    const off = engine.on((e) => {
      if ((e.type === 'app' && e.record.appId === appId) || (e.type === 'removed' && e.appId === appId))
        send();
    });
    const offGate = this.options.gate?.onOpen((id) => {
      if (id === appId) send();
    });
    const timer = setInterval(send, this.options.everyMs);
    res.on('close', () => {
      off();
      offGate?.();
      clearInterval(timer);
      this.live.delete(res);
      this.places.release(address);
    });
  }
}
