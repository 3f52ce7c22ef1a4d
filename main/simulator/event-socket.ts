/** The simulator's event socket: the platform's events, to OAuth credentials only. */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import type { SimBehaviour } from './behaviour.ts';
import type { SimulatedCloud } from './model.ts';
import { authorised, type SimCredentials } from './sim-credentials.ts';

/**
 * The event socket (wss://…/v2/events/event-socket): the client opens it, sends
 * {"message_type":"oauth","authorization":"<OAuth header>"}, gets {"message_type":"socket_ready"},
 * then heartbeats to answer and the platform's events ({event, date, data: "<JSON string>"}). A bad
 * authorization gets {type:"error", id:2001} and the socket closes.
 */
export function serveEventSocket(
  server: Server,
  cloud: SimulatedCloud,
  credentials: SimCredentials,
  behaviour: SimBehaviour,
  /** Upgrades for another Host (an app's own domain), taken before the event socket's: true when taken. */
  others: (req: IncomingMessage, socket: Duplex, head: Buffer) => boolean = () => false,
) {
  const wss = new WebSocketServer({ noServer: true });
  let ready = 0;
  server.on('upgrade', (req, socket, head) => {
    if (others(req, socket, head)) return;
    if (new URL(req.url ?? '/', 'http://simulator.invalid').pathname !== '/v2/events/event-socket') {
      socket.destroy();
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      let off: (() => void) | null = null;
      let heartbeat: ReturnType<typeof setInterval> | null = null;
      ws.once('message', (raw) => {
        let auth: { message_type?: string; authorization?: string } = {};
        try {
          auth = JSON.parse(String(raw));
        } catch {
          // not JSON: refused below
        }
        if (auth.message_type !== 'oauth' || !authorised(auth.authorization ?? '', credentials)) {
          ws.send(JSON.stringify({ type: 'error', id: 2001, message: 'authentication failed' }));
          ws.close();
          return;
        }
        ws.send(JSON.stringify({ message_type: 'socket_ready' }));
        ready++;
        off = cloud.onEvent((e) => {
          const message = {
            event: e.event,
            date: new Date(e.date).toISOString(),
            data: JSON.stringify(e.data),
          };
          ws.send(JSON.stringify(message));
        });
        // Pings every announced delay (read when the socket opens); none while pings are switched off.
        const delay = behaviour.socketPingDelayMs;
        heartbeat = setInterval(() => {
          if (!behaviour.socketPings) return;
          ws.send(JSON.stringify({ type: 'heartbeat', heartbeat_msg: 'ping', heartbeat_delay_ms: delay }));
        }, delay);
      });
      ws.on('close', () => {
        if (off) ready--;
        off?.();
        if (heartbeat) clearInterval(heartbeat);
      });
    });
  });
  return {
    /** Sockets authorised and following the platform's events now. */
    ready: () => ready,
    close: () => {
      for (const ws of wss.clients) ws.terminate();
      wss.close();
    },
  };
}
