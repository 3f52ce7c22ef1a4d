/**
 * The embedded simulator of the demo mode: the demo scenario served over HTTP on a loopback port,
 * and the real client pointed at it, so the demo exercises the same code as real Clever Cloud.
 */
import { CleverClient } from '../clever/client.ts';
import { operatorCredentials } from '../clever/credentials.ts';
import type { Clock } from '../engine/ports.ts';
import { buildDemoScenario, type DemoScenario } from './demo.ts';
import { DEMO_CREDENTIALS, type SimulatorServer, startSimulatorServer } from './server.ts';

export interface EmbeddedDemo {
  scenario: DemoScenario;
  simulator: SimulatorServer;
  client: CleverClient;
  close(): Promise<void>;
}

export async function startEmbeddedDemo(
  clock: Clock,
  options: { port?: number } = {},
): Promise<EmbeddedDemo> {
  const scenario = buildDemoScenario(clock);
  const simulator = await startSimulatorServer({ cloud: scenario.cloud, port: options.port ?? 0 });
  const o = DEMO_CREDENTIALS.oauth;
  const credentials = operatorCredentials(
    { kind: 'oauth1', token: o.token, secret: o.secret },
    { consumerKey: o.consumerKey, consumerSecret: o.consumerSecret, apiHost: simulator.url },
  );
  const client = new CleverClient({
    credentials: { ...credentials, source: 'demo', detail: 'the demo simulator' },
  });
  return { scenario, simulator, client, close: () => simulator.close() };
}
