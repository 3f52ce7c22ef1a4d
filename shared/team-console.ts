/**
 * The desktop app as a console of a team server: the state the dashboard shows in its header (local
 * engine, or which team server and whether it is reached), the IPC channels of the desktop-only calls
 * that switch between the two, and the check of a server's address that both sides make.
 *
 * The ReaperApi itself does not change: in team mode the desktop's main process answers the window's
 * calls and pushes its events from the server's admin API and event stream.
 *
 * No import: the sandboxed preload bundles this file alone.
 */

/** The team server's event stream, as the desktop sees it. */
export type TeamConnection = 'connecting' | 'live' | 'reconnecting' | 'unauthorized';

export type ConsoleState =
  | { mode: 'local' }
  | {
      mode: 'team';
      /** The server's origin, e.g. https://reaper.example.com */
      url: string;
      /** Its host (and port), for the header. */
      host: string;
      connection: TeamConnection;
      /** Who the desktop is signed in as on the server (its own token), null until it says. */
      who?: { name: string; role: 'viewer' | 'operator' | 'admin' } | null;
    };

/** Renderer → main (invoke): `(op, input)`, answered with an Envelope of the ConsoleState. */
export const CONSOLE_CHANNEL = 'reaper:console';
/** Main → renderer: the ConsoleState, each time it changes. */
export const CONSOLE_STATE_CHANNEL = 'reaper:console-state';

export const CONSOLE_OPS = ['get', 'connect', 'local'] as const;

export interface ConnectInput {
  url: string;
  token: string;
}

/** Admin tokens are long random strings; anything past this is not one. */
export const TOKEN_MAX = 512;

function isLoopbackName(hostname: string): boolean {
  return (
    hostname === 'localhost' || hostname === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname)
  );
}

/**
 * A team server's address as the operator typed it: its origin (https, or http on loopback only:
 * the admin token must never cross a network in clear), or what is wrong with it.
 */
export function checkServerUrl(text: string): { url: string; host: string } | { problem: string } {
  const given = text.trim();
  if (!given) return { problem: "Enter the team server's address, e.g. https://reaper.example.com" };
  if (!URL.canParse(given)) return { problem: `'${given.slice(0, 100)}' is not a web address` };
  const url = new URL(given);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return { problem: 'The address must start with https://' };
  }
  if (url.protocol === 'http:' && !isLoopbackName(url.hostname)) {
    return {
      problem:
        'The address must be https:// (http:// is accepted on this computer only: localhost, 127.0.0.1)',
    };
  }
  if (url.username || url.password) return { problem: 'The address must not hold a user name or password' };
  if ((url.pathname !== '/' && url.pathname !== '') || url.search || url.hash) {
    return { problem: "Enter the server's address alone, without a path (e.g. https://reaper.example.com)" };
  }
  return { url: url.origin, host: url.host };
}

/** What the preload exposes as `window.reaper.console` (each answer an envelope, as the calls are). */
export interface ConsoleBridge {
  get(): Promise<ConsoleEnvelope>;
  connect(input: ConnectInput): Promise<ConsoleEnvelope>;
  switchToLocal(): Promise<ConsoleEnvelope>;
  /** Hear every change of the state; returns the function that stops listening. */
  onState(listener: (state: ConsoleState) => void): () => void;
}

/** The envelope of shared/api-errors.ts, spelled out here to keep this file free of imports. */
export type ConsoleEnvelope =
  | { ok: true; value: ConsoleState }
  | { ok: false; error: { code: string; message: string } };
