/**
 * Large bodies through the real wake proxy, in a process of its own so that its memory can be read:
 * a 100 MB upload and a 100 MB download between a client and the simulator's app over loopback. Each
 * streams with backpressure: the proxy's peak resident memory grows by a fraction of the body,
 * where a proxy that buffered either body would grow by all of it.
 */
import { request } from 'node:http';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../engine/clocks.ts';
import { SimulatedCloud } from '../simulator/model.ts';
import { type SimulatorServer, startSimulatorServer } from '../simulator/server.ts';
import { PROXIED_HOST, type ProxyProcess, wakeProxyProcess } from '../testing/wake-proxy-process.ts';

const SIZE = 100 * 2 ** 20;
/** What the proxy may grow by while 100 MB go through: a buffering proxy would need 100 MB more. */
const BOUND = 40 * 2 ** 20;

let sim: SimulatorServer | null = null;
let proxy: ProxyProcess | null = null;
afterEach(async () => {
  await proxy?.close();
  proxy = null;
  await sim?.close();
  sim = null;
});

async function setUp() {
  const cloud = new SimulatedCloud(systemClock);
  const app = cloud.addApp(cloud.addOrganisation('Big').id, 'big');
  sim = await startSimulatorServer({ cloud });
  proxy = await wakeProxyProcess({ origin: sim.url, host: app.vhosts[0]! }, { gcEveryMs: 50 });
  // Warm up: a small download and upload first, so the baseline holds what any request needs.
  await download(proxy.port, 1024 * 1024);
  await upload(proxy.port, 1024 * 1024);
  return proxy;
}

/** Bytes of a download through the proxy, read slowly (a pause every MiB): the proxy must hold back. */
function download(port: number, bytes: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path: `/download?bytes=${bytes}`, headers: { host: PROXIED_HOST } },
      (res) => {
        let got = 0;
        let sinceBreak = 0;
        res.on('data', (c: Buffer) => {
          got += c.length;
          sinceBreak += c.length;
          if (sinceBreak < 2 ** 20) return;
          sinceBreak = 0;
          res.pause();
          setTimeout(() => res.resume(), 2);
        });
        res.on('end', () => resolve(got));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** An upload of `bytes` through the proxy, written as the connection takes it; what the app received. */
function upload(port: number, bytes: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const chunk = Buffer.alloc(64 * 1024, 0x62);
    let left = bytes;
    const body = new Readable({
      read() {
        if (left <= 0) return void this.push(null);
        const n = Math.min(left, chunk.length);
        left -= n;
        this.push(n === chunk.length ? chunk : chunk.subarray(0, n));
      },
    });
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/upload',
        headers: { host: PROXIED_HOST, 'content-type': 'application/octet-stream', 'content-length': bytes },
      },
      (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve((JSON.parse(text) as { received: number }).received));
      },
    );
    req.on('error', reject);
    body.pipe(req);
  });
}

describe('large bodies stream through the wake proxy', () => {
  it('a 100 MB download and a 100 MB upload, the proxy growing by a fraction of either', async () => {
    const p = await setUp();
    const before = p.memory();
    expect(await download(p.port, SIZE)).toBe(SIZE);
    const afterDownload = p.memory();
    expect(await upload(p.port, SIZE)).toBe(SIZE);
    const afterUpload = p.memory();
    const grew = afterUpload.peak - before.peak;
    console.log(
      `wake proxy peak resident memory: ${(before.peak / 2 ** 20).toFixed(1)} MiB before, ` +
        `${(afterDownload.peak / 2 ** 20).toFixed(1)} after the download, ${(afterUpload.peak / 2 ** 20).toFixed(1)} after the upload`,
    );
    expect(grew).toBeLessThan(BOUND);
  }, 180_000);
});
