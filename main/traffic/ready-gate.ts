/**
 * Up means the app answers. Clever Cloud reports an app up when its deployment ends, but its front
 * can still answer for a while as if the app had no instance: a 404 with `X-CleverCloudUpgrade: true`
 * (never the app's own answer), or a 502/503/504 (docs/clever-cloud-facts.md, "The front"). So after
 * an app came up, the wake proxy forwards nothing until the app itself answered once:
 *
 * - one probe per app (`HEAD /`, idempotent, sent again every `paceMs` while the answer is "not yet");
 *   every request for the app waits for it, whatever its method, so a POST is never sent to a front
 *   that would drop it, and nothing is sent twice;
 * - a 404 with X-CleverCloudUpgrade means "not yet" until `limitMs` after Up; a 502/503/504 only
 *   within the route's ready delay (after it, it is the app's own answer: an app may answer 503);
 * - the gate of an Up opens once, at the app's first answer (or at the limit): then the hot path pays
 *   one map read. An Up older than `limitMs` is not probed (the reaper restarted, an app up for long).
 *
 * When the proxy saw the request that woke the app, the wait that visitor had (from that request to
 * the app's first answer) is reported once per wake (`onFirstAnswer`).
 */
import { type Agent as HttpAgent, request as httpRequest } from 'node:http';
import { type Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { EngineEvent } from '../engine/engine.ts';
import type { Clock } from '../engine/ports.ts';

export interface ProbeAnswer {
  status: number;
  upgrade: boolean;
}

export interface FirstAnswer {
  appId: string;
  /** From the first request of the wake to the app's first answer. */
  waitMs: number;
  /** From Up (as the engine saw it) to the app's first answer. */
  afterUpMs: number;
  /** The gate opened at the limit, without a real answer. */
  timedOut: boolean;
}

export interface ReadyGateOptions {
  clock: Clock;
  /** Ask the app once. */
  probe: (appId: string) => Promise<ProbeAnswer>;
  /** How long after Up the front's 404 with X-CleverCloudUpgrade still means "not yet". */
  limitMs: () => number;
  /** Engine time between two probes (default 250 ms). */
  paceMs?: number;
  onFirstAnswer?: (answer: FirstAnswer) => void;
  /** The engine whose wakes arm the gate: an app that turns Up from Waking up. */
  engine: { on(listener: (event: EngineEvent) => void): () => void };
}

interface Gate {
  upAt: number;
  open: boolean;
  opened: Promise<void>;
  readyDelayMs: number;
}

/** The front's answer says "not routed yet" (at `sinceUp` ms after Up, with the route's ready delay). */
export function notYet(answer: ProbeAnswer, sinceUp: number, readyDelayMs: number, limitMs: number): boolean {
  if (answer.status === 404 && answer.upgrade) return sinceUp < limitMs;
  if (answer.status === 502 || answer.status === 503 || answer.status === 504) return sinceUp < readyDelayMs;
  return false;
}

export class ReadyGate {
  private readonly options: ReadyGateOptions;
  private readonly gates = new Map<string, Gate>();
  /** The first request of a wake the proxy saw, per app (the visitor whose wait is reported). */
  private readonly firstRequests = new Map<string, number>();
  private readonly listeners = new Set<(appId: string) => void>();
  /** The Up of each app that followed a wake (the one its gate is for), and each app's last state. */
  private readonly wakes = new Map<string, number>();
  private readonly states = new Map<string, string>();
  private readonly off: () => void;
  private closed = false;

  constructor(options: ReadyGateOptions) {
    this.options = options;
    this.off = options.engine.on((e) => {
      if (e.type === 'removed') {
        this.forget(e.appId);
        return;
      }
      if (e.type !== 'app') return;
      const { appId, state, cameUpAt } = e.record;
      const before = this.states.get(appId);
      this.states.set(appId, state);
      if (state === 'Up' && before === 'WaitingForUp' && cameUpAt !== null) this.wakes.set(appId, cameUpAt);
      if (state === 'Error') this.firstRequests.delete(appId);
    });
  }

  private forget(appId: string): void {
    this.wakes.delete(appId);
    this.states.delete(appId);
    this.gates.delete(appId);
    this.firstRequests.delete(appId);
  }

  /** A request asked for the sleeping app at `at`: the wake's first, unless one came before. */
  asked(appId: string, at: number): void {
    if (!this.firstRequests.has(appId)) this.firstRequests.set(appId, at);
  }

  /** The app answers (null: go ahead), or a promise that resolves when it does. */
  wait(appId: string, upAt: number | null, readyDelayMs: number): Promise<void> | null {
    if (upAt === null || this.wakes.get(appId) !== upAt) return null;
    const gate = this.gates.get(appId);
    if (gate && gate.upAt === upAt) return gate.open ? null : gate.opened;
    if (this.options.clock.now() - upAt >= this.options.limitMs()) {
      this.firstRequests.delete(appId);
      return null;
    }
    return this.probe(appId, upAt, readyDelayMs).opened;
  }

  /** The app answered its first request since it came up (the waking page may reload). */
  isOpen(appId: string, upAt: number | null): boolean {
    return this.wait(appId, upAt, this.gates.get(appId)?.readyDelayMs ?? 0) === null;
  }

  onOpen(listener: (appId: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  close(): void {
    this.closed = true;
    this.off();
    this.gates.clear();
    this.listeners.clear();
  }

  private probe(appId: string, upAt: number, readyDelayMs: number): Gate {
    const { clock, limitMs } = this.options;
    let release: () => void = () => undefined;
    const gate: Gate = {
      upAt,
      open: false,
      readyDelayMs,
      opened: new Promise<void>((resolve) => {
        release = resolve;
      }),
    };
    this.gates.set(appId, gate);
    const open = (timedOut: boolean) => {
      if (gate.open) return;
      gate.open = true;
      release();
      const firstAt = this.firstRequests.get(appId);
      this.firstRequests.delete(appId);
      const now = clock.now();
      if (firstAt !== undefined && firstAt <= upAt)
        this.options.onFirstAnswer?.({ appId, waitMs: now - firstAt, afterUpMs: now - upAt, timedOut });
      for (const l of this.listeners) l(appId);
    };
    const round = async (): Promise<void> => {
      if (this.closed || this.gates.get(appId) !== gate) return open(true);
      const sinceUp = clock.now() - upAt;
      if (sinceUp >= limitMs()) return open(true);
      let answer: ProbeAnswer | null = null;
      try {
        answer = await this.options.probe(appId);
      } catch {
        answer = null; // not reachable yet: asked again at the next pace
      }
      if (answer && !notYet(answer, clock.now() - upAt, readyDelayMs, limitMs())) return open(false);
      clock.setTimeout(() => {
        round().catch(() => open(true));
      }, this.options.paceMs ?? 250);
    };
    round().catch(() => open(true));
    return gate;
  }
}

/** One `HEAD /` to the app's domain, as the proxy would send it (its Host, this reaper's Via). */
export function probeUpstream(
  upstream: { origin: string; host: string },
  agents: { http: HttpAgent; https: HttpsAgent },
  via: string,
  timeoutMs = 10_000,
): Promise<ProbeAnswer> {
  const url = new URL(upstream.origin);
  const https = url.protocol === 'https:';
  return new Promise((resolve, reject) => {
    const req = (https ? httpsRequest : httpRequest)(
      {
        hostname: url.hostname,
        port: Number(url.port) || (https ? 443 : 80),
        path: '/',
        method: 'HEAD',
        headers: { host: upstream.host, via, 'user-agent': 'Clever Reaper (ready check)' },
        agent: https ? agents.https : agents.http,
        timeout: timeoutMs,
        ...(https ? { servername: upstream.host } : {}),
      },
      (res) => {
        res.resume();
        resolve({
          status: res.statusCode ?? 0,
          upgrade: String(res.headers['x-clevercloudupgrade'] ?? '').toLowerCase() === 'true',
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error('no answer in time')));
    req.on('error', reject);
    req.end();
  });
}
