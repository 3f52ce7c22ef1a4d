/**
 * The desktop's view of a team server with a person's own token (the parts that need no Electron:
 * Electron cannot run here, so the window itself is not tested; the renderer's side is
 * renderer/components/shell/desktop-who.test.tsx): who the token is, that it reaches the window's
 * channel (CONSOLE_STATE_CHANNEL, through the real EventPipe and console handler), and the calls it
 * makes named as the desktop's in the audit.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../shared/people.ts';
import { CONSOLE_STATE_CHANNEL, type ConsoleState } from '../../shared/team-console.ts';
import { type Headless, startHeadless } from '../server/headless.ts';
import { TEST_SERVER } from '../testing/test-server.ts';
import { createConsoleHandler, pushConsoleState } from './console-ipc.ts';
import { ConsoleMode } from './console-mode.ts';
import { EventPipe, type Trust } from './ipc.ts';
import { checkTeamServer, teamIdentity } from './remote-service.ts';

let server: Headless;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'reaper-desktop-people-'));
  server = await startHeadless({ ...TEST_SERVER, demo: true, dataDir });
}, 60_000);
afterAll(async () => {
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('a desktop on a team server with its own token', () => {
  it('knows who it is signed in as, with which role; a revoked token is refused', async () => {
    const { token } = await server.people.createToken({ name: 'vera', role: 'viewer' }, 'test');
    expect(await checkTeamServer(server.url, token)).toBeNull();
    expect(await teamIdentity(server.url, token)).toEqual({ name: 'vera', role: 'viewer' });
    expect(await teamIdentity(server.url, server.token.token)).toEqual({ name: 'bootstrap', role: 'admin' });
    await server.people.revokeToken('vera');
    expect(await teamIdentity(server.url, token)).toBeNull();
    expect(await checkTeamServer(server.url, token)).toBe('The team server refused this admin token');
  });

  it("names the desktop in the audit of an admin's change", async () => {
    const { token } = await server.people.createToken({ name: 'dora', role: 'admin' }, 'test');
    const res = await fetch(`${server.url}/api/settings`, {
      method: 'PATCH',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        'x-reaper-via': 'desktop',
      },
      body: JSON.stringify({ dryRun: true }),
    });
    expect(res.status).toBe(200);
    const audit = (await (
      await fetch(`${server.url}/api/audit?what=dryRun`, { headers: { authorization: `Bearer ${token}` } })
    ).json()) as AuditEntry[];
    expect(audit[0]).toMatchObject({ by: 'dora', via: 'desktop', before: false, after: true });
  });
});

describe("who the desktop is signed in as, on the window's channel", () => {
  const PAGE = 'file:///app/out/renderer/index.html';
  const trust: Trust = { page: { kind: 'file', url: PAGE }, isAppWindow: (id) => id === 7 };

  it('pushes the name and the role to the window once the server said, and answers them to get', async () => {
    const { token } = await server.people.createToken({ name: 'otto', role: 'operator' }, 'test');
    // The team server kept from a previous run (as the keychain would give it back).
    let kept: string | null = JSON.stringify({ url: server.url, token });
    const mode = new ConsoleMode({
      startLocal: () => Promise.reject(new Error('the local engine is not started in this test')),
      store: {
        description: 'memory',
        load: () => kept,
        save: (text) => {
          kept = text;
        },
      },
      remote: { retryMs: 50, maxRetryMs: 200, silenceMs: 2000 },
    });
    // The window (a webContents stand-in: Electron is not available here) listens on its channel.
    const sent: { channel: string; state: ConsoleState }[] = [];
    let heard: () => void = () => undefined;
    const named = new Promise<void>((resolve) => {
      heard = resolve;
    });
    const pipe = new EventPipe();
    pipe.attach({
      id: 7,
      isDestroyed: () => false,
      send: (channel, state) => {
        sent.push({ channel, state: state as ConsoleState });
        if ((state as ConsoleState).mode === 'team' && (state as { who?: unknown }).who) heard();
      },
    });
    pipe.markReady(7);
    const off = pushConsoleState(mode, pipe);
    try {
      await mode.start();
      await named;
      const last = sent.at(-1)!;
      expect(last.channel).toBe(CONSOLE_STATE_CHANNEL);
      expect(last.state).toMatchObject({
        mode: 'team',
        url: server.url,
        who: { name: 'otto', role: 'operator' },
      });
      // Before the server answered, the window heard the team mode with nobody named yet.
      expect(sent[0]?.state).toMatchObject({ mode: 'team', who: null });
      // A page that loads later asks for it (the console's `get`), and hears the same.
      const handle = createConsoleHandler(mode, trust);
      const answer = await handle({ sender: { id: 7 }, senderFrame: { url: PAGE, parent: null } }, 'get', {});
      expect(answer).toMatchObject({ ok: true, value: { who: { name: 'otto', role: 'operator' } } });
    } finally {
      off();
      await mode.close();
    }
  });
});
