/**
 * The Dockerfile, without Docker (not runnable here): its run stage is parsed (a non-root USER, a
 * HEALTHCHECK on /healthz, EXPOSE 8080 and PORT, the start command), what it copies is checked to
 * hold every file the server imports and every package it needs to be a production dependency
 * (`npm ci --omit=dev`), and its start command and health check are run as the container would run
 * them, with PORT set. `npm run serve:prod` (Clever Cloud's CC_RUN_COMMAND) is the same command.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

interface Instruction {
  keyword: string;
  args: string;
}

/** The instructions of each stage, continuation lines joined and comments dropped. */
function stages(text: string): Instruction[][] {
  const lines = text.replace(/\\\r?\n/g, ' ').split(/\r?\n/);
  const out: Instruction[][] = [];
  for (const line of lines) {
    const trimmed = line.trim();
    if (!trimmed || trimmed.startsWith('#')) continue;
    const [, keyword = '', args = ''] = /^(\S+)\s*(.*)$/.exec(trimmed) ?? [];
    if (keyword.toUpperCase() === 'FROM') out.push([]);
    out.at(-1)?.push({ keyword: keyword.toUpperCase(), args: args.trim() });
  }
  return out;
}

const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
const all = stages(dockerfile);
const run = all.at(-1)!;
const one = (keyword: string) => run.filter((i) => i.keyword === keyword);
const execForm = (args: string) => JSON.parse(args) as string[];

/** The files the server loads, from main/server/cli.ts, and the packages they import. */
function serverGraph(): { files: string[]; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const walk = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    const source = readFileSync(file, 'utf8');
    for (const m of source.matchAll(
      /^\s*(?:import|export)\s+(type\s+)?[^'";]*?from\s+'([^']+)'|import\(\s*'([^']+)'\s*\)/gm,
    )) {
      if (m[1]) continue;
      const spec = m[2] ?? m[3]!;
      if (spec.startsWith('.')) walk(resolve(dirname(file), spec));
      else if (!spec.startsWith('node:'))
        packages.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!);
    }
  };
  walk(join(ROOT, 'main/server/cli.ts'));
  return { files: [...files].map((f) => relative(ROOT, f)), packages };
}

describe('the Dockerfile', () => {
  it('builds in two stages on Node 24 and runs as an unprivileged user', () => {
    expect(all.length).toBeGreaterThanOrEqual(2);
    for (const stage of all) expect(stage[0]!.args).toMatch(/^node:24(-slim)?\b/);
    const users = one('USER').map((u) => u.args);
    expect(users.length).toBeGreaterThan(0);
    expect(users.at(-1)).not.toMatch(/^(root|0)(:|$)/);
    // The user comes after every RUN (nothing runs as root after the switch... nor needs to).
    const lastUser = run.findLastIndex((i) => i.keyword === 'USER');
    expect(run.slice(lastUser).some((i) => i.keyword === 'RUN')).toBe(false);
    expect(one('RUN').some((r) => /npm ci --omit=dev/.test(r.args))).toBe(true);
  });

  it('exposes 8080, sets PORT and checks its health on /healthz', () => {
    expect(one('EXPOSE').map((e) => e.args)).toEqual(['8080']);
    expect(
      one('ENV')
        .map((e) => e.args)
        .join(' '),
    ).toMatch(/\bPORT=8080\b/);
    const [health] = one('HEALTHCHECK');
    expect(health?.args).toMatch(/--interval=\d+s/);
    expect(health?.args).toContain('/healthz');
  });

  it('copies every file the server imports, and needs no dev dependency at run time', () => {
    const copied = one('COPY')
      .filter((c) => !c.args.startsWith('--from'))
      .flatMap((c) => c.args.split(/\s+/).slice(0, -1));
    const ignored = readFileSync(join(ROOT, '.dockerignore'), 'utf8')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#'));
    const { files, packages } = serverGraph();
    expect(files.length).toBeGreaterThan(50);
    for (const file of files) {
      expect(
        copied.some((c) => file === c || file.startsWith(`${c}/`)),
        `${file} is copied`,
      ).toBe(true);
      const isTest = /\.test\.tsx?$/.test(file);
      const dropped = ignored.some((p) => !p.includes('*') && (file === p || file.startsWith(`${p}/`)));
      expect(isTest || dropped, `${file} is not left out by .dockerignore`).toBe(false);
    }
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
      scripts: Record<string, string>;
    };
    for (const name of packages)
      expect(pkg.dependencies, `${name} is a production dependency`).toHaveProperty(name);
    // The built dashboard comes from the build stage.
    expect(one('COPY').some((c) => /^--from=\w+\s+\/app\/out\/renderer\s/.test(c.args))).toBe(true);
    // Clever Cloud's run command is the container's.
    expect(pkg.scripts['serve:prod']).toBe(execForm(one('CMD')[0]!.args).join(' '));
  });
});

describe("the container's start command, run without Docker", () => {
  let child: ChildProcess | null = null;
  let home = '';
  afterEach(() => {
    child?.kill('SIGKILL');
    child = null;
    if (home) rmSync(home, { recursive: true, force: true });
    home = '';
  });

  it('listens on PORT on every address and answers /healthz; the HEALTHCHECK command passes', async () => {
    home = mkdtempSync(join(tmpdir(), 'reaper-docker-'));
    const [command, ...args] = execForm(one('CMD')[0]!.args);
    expect(command).toBe('node');
    // PORT=0: a free port (the image's is 8080); the rest of the image's environment as it sets it.
    const env = {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'production',
      PORT: '0',
      REAPER_HOME: join(home, 'data'),
      HOME: home,
      XDG_CONFIG_HOME: home,
      REAPER_ADMIN_TOKEN: 'a-token-for-the-container-test',
    };
    child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    // The start banner's last line is the wake proxy's: the output can arrive in several chunks.
    const started = new Promise<void>((resolve, reject) => {
      const read = (c: Buffer) => {
        out += c.toString();
        if (out.includes('Wake proxy: on this port too')) resolve();
      };
      child!.stdout!.on('data', read);
      child!.stderr!.on('data', read);
      child!.once('exit', (code) => reject(new Error(`exited with ${code} before it started:\n${out}`)));
    });
    await started;
    const base = /Admin API: (http:\/\/0\.0\.0\.0:\d+)\/api/.exec(out)?.[1] ?? '';
    expect(base, out).not.toBe('');
    const port = new URL(base).port;
    const health = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.text()).toBe('ok');
    // No account in this environment: alive, not ready.
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
    expect([ready.status, await ready.text()]).toEqual([503, 'disconnected']);

    const healthcheck = execForm(/CMD\s+(\[.*\])$/.exec(one('HEALTHCHECK')[0]!.args)![1]!);
    expect(healthcheck[0]).toBe('node');
    const probe = spawnSync(process.execPath, healthcheck.slice(1), {
      env: { ...env, PORT: port },
      timeout: 10_000,
    });
    expect(probe.status).toBe(0);
    const stopped = spawnSync(process.execPath, healthcheck.slice(1), {
      env: { ...env, PORT: '1' },
      timeout: 10_000,
    });
    expect(stopped.status).toBe(1);
    expect(existsSync(join(home, 'data', 'admin-token'))).toBe(false);
  });
});
