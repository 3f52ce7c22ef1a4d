import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { authorizationHeader, operatorCredentials } from '../clever/credentials.ts';
import { DEMO_CREDENTIALS } from './server.ts';

const cli = fileURLToPath(new URL('./cli.ts', import.meta.url));
let child: ChildProcess | null = null;
afterEach(() => {
  child?.kill('SIGTERM');
  child = null;
});

function run(args: string[]): Promise<{ url?: string; exit?: number; output: string }> {
  return new Promise((resolve) => {
    child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', cli, ...args]);
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const m = /simulator on (http:\/\/\S+)/.exec(output);
      if (m) resolve({ url: m[1]!, output });
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('exit', (code) => resolve({ exit: code ?? -1, output }));
  });
}

describe('npm run simulator', () => {
  it('runs alone on the port asked for and serves the demo scenario to valid credentials', async () => {
    const { url } = await run(['--port', '0', '--scenario', 'demo']);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const o = DEMO_CREDENTIALS.oauth;
    const header = authorizationHeader(
      operatorCredentials(
        { kind: 'oauth1', token: o.token, secret: o.secret },
        { consumerKey: o.consumerKey, consumerSecret: o.consumerSecret },
      ),
    );
    const orgs = (await (
      await fetch(`${url}/v2/organisations`, { headers: { authorization: header } })
    ).json()) as {
      id: string;
      name: string;
    }[];
    expect(orgs.map((o) => o.name)).toEqual(['Demo User', 'Acme Staging']);
    expect((await fetch(`${url}/v2/organisations`)).status).toBe(401);
  });

  it('refuses a bad flag with a message naming it', async () => {
    const { exit, output } = await run(['--port', 'eighty']);
    expect(exit).toBe(2);
    expect(output).toContain("--port: 'eighty' is not a port number");
  });
});
