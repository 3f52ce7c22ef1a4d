/**
 * The headless server's exposure to the network: connection caps (a flood of idle connections to the
 * wake proxy is held at its cap and the admin API still answers; the admin API has a cap of its own),
 * --allowed-host (the Host check on 0.0.0.0), and the last-resort handler of the process.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { ask, openFrom } from '../testing/raw-sockets.ts';
import { until } from '../testing/serve-process.ts';
import { parseCli } from './cli.ts';
import { type Headless, startHeadless } from './headless.ts';

const ADMIN = 'admin-token-for-the-exposure-tests';
let server: Headless | null = null;
let dataDir = '';
const sockets: Socket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  await server?.close();
  server = null;
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  dataDir = '';
});

async function serve(options: Partial<Parameters<typeof startHeadless>[0]> = {}) {
  dataDir = mkdtempSync(join(tmpdir(), 'reaper-exposure-'));
  server = await startHeadless({
    demo: true,
    scenario: 'demo',
    host: '127.0.0.1',
    port: 0,
    dataDir,
    apiUrl: null,
    timeScale: 1,
    staticDir: null,
    env: { REAPER_ADMIN_TOKEN: ADMIN },
    ...options,
  });
  return server;
}

function api(path: string, init: RequestInit = {}) {
  return fetch(`${server!.url}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${ADMIN}`, ...(init.headers as Record<string, string>) },
  });
}

const open = (port: number, from?: string) => openFrom(sockets, port, from);

describe('connection caps', () => {
  it('idle connections to the wake proxy are held at its caps, and the admin API answers', async () => {
    await serve({ caps: { maxConnections: 300, maxConnectionsPerAddress: 100, adminMaxConnections: 40 } });
    await api('/api/settings', {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ wakeProxyPort: 0 }),
    });
    const proxyUrl = await until(
      'the wake proxy on its new port',
      15_000,
      async () => {
        const status = (await (await api('/api/status')).json()) as { wakeProxy: { url: string | null } };
        const url = status.wakeProxy.url ?? '';
        return url && !url.endsWith(':7411') ? url : null;
      },
      50,
    );
    const proxyPort = Number(new URL(proxyUrl).port);

    // 120 idle connections from each of three addresses, then 60 from a fourth: 300 in all.
    const opened: { from: string; closed: () => boolean; socket: Socket }[] = [];
    for (const from of ['127.0.0.2', '127.0.0.3', '127.0.0.4', '127.0.0.5'])
      for (let i = 0; i < (from === '127.0.0.5' ? 60 : 120); i++)
        opened.push({ from, ...(await open(proxyPort, from)) });
    // The proxy closes those over its caps as it accepts them: 20 from each of the first three, 60
    // from the fourth.
    await until('the connections over the caps closed', 15_000, async () =>
      opened.filter((o) => o.closed()).length >= 120 ? true : null,
    );
    const held = opened.filter((o) => !o.closed());
    const heldFrom = (from: string) => held.filter((o) => o.from === from).length;
    // 100 per address for the first three (the 20 more each closed), and the total cap leaves none
    // for the fourth.
    expect([
      heldFrom('127.0.0.2'),
      heldFrom('127.0.0.3'),
      heldFrom('127.0.0.4'),
      heldFrom('127.0.0.5'),
    ]).toEqual([100, 100, 100, 0]);
    // The admin API answers meanwhile.
    const started = Date.now();
    expect((await api('/api/status')).status).toBe(200);
    const answeredMs = Date.now() - started;
    // The connections held are real: each answers a request.
    expect(await ask(held[0]!.socket, 'GET / HTTP/1.1\r\nHost: nowhere.test\r\n\r\n')).toBe(
      'HTTP/1.1 404 Not Found',
    );
    // Connections closed free their places.
    for (const o of held.filter((x) => x.from === '127.0.0.2').slice(0, 10)) o.socket.destroy();
    // The proxy frees them when it sees them closed: a new connection is asked until one is held.
    const answeredAgain = await until(
      'a place freed for a new connection',
      15_000,
      async () => {
        const again = await open(proxyPort, '127.0.0.5').catch(() => null);
        const first = again ? await ask(again.socket, 'GET / HTTP/1.1\r\nHost: nowhere.test\r\n\r\n') : '';
        return first === '' ? null : first;
      },
      50,
    );
    expect(answeredAgain).toBe('HTTP/1.1 404 Not Found');

    // The admin API's own cap: 40 connections (fetch keeps one or two of them), the rest closed at once.
    const adminPort = Number(new URL(server!.url).port);
    const idle: Awaited<ReturnType<typeof open>>[] = [];
    for (let i = 0; i < 45; i++) idle.push(await open(adminPort, '127.0.0.6'));
    await until('the admin connections over its cap closed', 15_000, async () =>
      idle.filter((o) => o.closed()).length >= 5 ? true : null,
    );
    expect(idle.filter((o) => !o.closed()).length).toBeLessThanOrEqual(40);
    expect(idle.filter((o) => o.closed()).length).toBeGreaterThanOrEqual(5);
    for (const o of idle) o.socket.destroy();
    const statusAgain = await until(
      'the admin API with places again',
      15_000,
      async () => {
        const answer = await api('/api/status').catch(() => null);
        return answer?.status === 200 ? answer.status : null;
      },
      50,
    );
    expect(statusAgain).toBe(200);
    console.log(
      `wake proxy: ${held.length} connections held at the cap, ${opened.length - held.length} closed; admin API answered in ${answeredMs} ms`,
    );
  });
});

describe('--allowed-host', () => {
  function hostAnswer(host: string): Promise<string> {
    return new Promise((resolve) => {
      const socket = connect(Number(new URL(server!.url).port), '127.0.0.1');
      sockets.push(socket);
      let answer = '';
      socket.on('data', (c: Buffer) => (answer += c.toString()));
      socket.on('close', () => resolve(answer.split('\r\n')[0] ?? ''));
      socket.write(
        `GET /api/status HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${ADMIN}\r\nConnection: close\r\n\r\n`,
      );
    });
  }

  it("on 0.0.0.0, only the allowed names, loopback and the machine's own addresses pass", async () => {
    await serve({ host: '0.0.0.0', allowedHosts: ['reaper.example.test'] });
    const port = new URL(server!.url).port;
    expect(await hostAnswer(`reaper.example.test:${port}`)).toBe('HTTP/1.1 200 OK');
    expect(await hostAnswer(`REAPER.example.test.:${port}`)).toBe('HTTP/1.1 200 OK');
    expect(await hostAnswer(`localhost:${port}`)).toBe('HTTP/1.1 200 OK');
    expect(await hostAnswer(`127.0.0.1:${port}`)).toBe('HTTP/1.1 200 OK');
    for (const host of ['attacker.example', 'reaper.example.test.attacker.example', 'example.test'])
      expect(await hostAnswer(`${host}:${port}`)).toBe('HTTP/1.1 403 Forbidden');
    const { networkInterfaces } = await import('node:os');
    const own = Object.values(networkInterfaces())
      .flat()
      .find((a) => a && a.family === 'IPv4' && !a.internal);
    if (own) expect(await hostAnswer(`${own.address}:${port}`)).toBe('HTTP/1.1 200 OK');
  });

  it('without it, 0.0.0.0 lets any Host pass (the command line warns)', async () => {
    await serve({ host: '0.0.0.0' });
    expect(await hostAnswer('attacker.example')).toBe('HTTP/1.1 200 OK');
  });

  it('two Host headers get 400, on its own port and on one port (never routed by the first)', async () => {
    for (const onePort of [false, true]) {
      await serve({ onePort, allowedHosts: ['reaper.example.test'] });
      const port = Number(new URL(server!.url).port);
      for (const probe of ['/api/status', '/readyz']) {
        const { socket } = await open(port, '127.0.0.1');
        const first = await ask(
          socket,
          `GET ${probe} HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: elsewhere.example\r\nAuthorization: Bearer ${ADMIN}\r\n\r\n`,
        );
        expect(first).toBe('HTTP/1.1 400 Bad Request');
      }
      const { socket } = await open(port, '127.0.0.1');
      expect(
        await ask(
          socket,
          `GET /api/status HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${ADMIN}\r\n\r\n`,
        ),
      ).toBe('HTTP/1.1 200 OK');
      await server!.close();
      server = null;
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('is read from the command line (repeatable) and $REAPER_ALLOWED_HOSTS', () => {
    const options = parseCli(
      ['--allowed-host', 'Reaper.Example.test', '--allowed-host', 'ops.example.test'],
      {
        REAPER_HOME: '/tmp/x',
        REAPER_ALLOWED_HOSTS: 'env.example.test, ops.example.test',
      },
    );
    expect(options).toMatchObject({
      allowedHosts: ['reaper.example.test', 'ops.example.test', 'env.example.test'],
    });
    expect(() => parseCli(['--allowed-host', 'https://reaper.example.test'])).toThrow(/^--allowed-host: /);
    expect(() => parseCli(['--allowed-host', 'reaper.example.test:7410'])).toThrow(/^--allowed-host: /);
    expect(parseCli(['--max-connections', '500', '--admin-max-connections', '20'], {})).toMatchObject({
      caps: { maxConnections: 500, adminMaxConnections: 20 },
    });
    expect(() => parseCli(['--max-connections-per-address', '0'])).toThrow(
      /^--max-connections-per-address: /,
    );
  });
});

describe('the last-resort handler', () => {
  it('logs a rejection nobody handled and an uncaught exception once each, and serves on; a burst stops it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'reaper-last-resort-'));
    const cli = fileURLToPath(new URL('./cli.ts', import.meta.url));
    const script = join(dir, 'serve.mjs');
    writeFileSync(
      script,
      `import { createServer } from 'node:http';
import { installLastResort } from ${JSON.stringify(cli)};
installLastResort(process, (level, message) => console.error('[' + level + '] ' + message), (code) => process.exit(code), 3);
for (let i = 0; i < 50; i++) Promise.reject(new Error('refused write ' + (i % 2)));
setTimeout(() => { throw new Error('thrown from a timer'); }, 5);
const server = createServer((req, res) => res.end('alive'));
server.listen(0, '127.0.0.1', () => setTimeout(() => console.log('port ' + server.address().port), 50));
process.stdin.on('data', () => { for (let i = 0; i < 5; i++) setTimeout(() => { throw new Error('in a loop'); }, 1); });
`,
    );
    const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', script], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    try {
      let stderr = '';
      child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      const port = await new Promise<number>((resolve, reject) => {
        let out = '';
        child.stdout!.on('data', (c: Buffer) => {
          out += c.toString();
          const m = /port (\d+)/.exec(out);
          if (m) resolve(Number(m[1]));
        });
        exited.then((code) => reject(new Error(`exited with ${code}: ${stderr}`)), reject);
      });
      expect(await (await fetch(`http://127.0.0.1:${port}/`)).text()).toBe('alive');
      expect(stderr.match(/nobody handled it \(serving on\): Error: refused write 0/g)).toHaveLength(1);
      expect(stderr.match(/nobody handled it \(serving on\): Error: refused write 1/g)).toHaveLength(1);
      expect(stderr.match(/not caught \(serving on\): Error: thrown from a timer/g)).toHaveLength(1);
      child.stdin!.write('go\n');
      expect(await exited).toBe(70);
      expect(stderr).toContain('more than 3 uncaught exceptions within a minute: stopping (exit 70)');
    } finally {
      child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
