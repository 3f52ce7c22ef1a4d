/**
 * `npm run simulator -- [--port N] [--host H] [--scenario demo|empty] [--time-scale N]
 * [--time-origin MS]`: the Clever Cloud simulator alone, for trying the client or the app against it
 * (`--api-url`). A scaled simulator counts from `--time-origin` (default: its start) and prints it:
 * `npm run serve -- --api-url URL --time-scale N --time-origin MS` then agrees with it on every date.
 */
import { parseArgs } from 'node:util';
import { ScaledClock, systemClock } from '../engine/clocks.ts';
import { buildDemoScenario } from './demo.ts';
import { SimulatedCloud } from './model.ts';
import { DEMO_CREDENTIALS, startSimulatorServer } from './server.ts';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '0' },
    host: { type: 'string', default: '127.0.0.1' },
    scenario: { type: 'string', default: 'demo' },
    'time-scale': { type: 'string', default: '1' },
    'time-origin': { type: 'string' },
    help: { type: 'boolean', default: false },
  },
});

if (values.help) {
  console.log(
    'usage: npm run simulator -- [--port N] [--host 127.0.0.1] [--scenario demo|empty] [--time-scale N] [--time-origin MS]',
  );
  process.exit(0);
}
const port = Number(values.port);
const scale = Number(values['time-scale']);
if (!Number.isInteger(port) || port < 0 || port > 65535)
  fail(`--port: '${values.port}' is not a port number`);
if (!(scale > 0 && scale <= 10_000))
  fail(`--time-scale: '${values['time-scale']}' is not a number from 0 to 10000`);
if (values.scenario !== 'demo' && values.scenario !== 'empty') fail(`--scenario: use demo or empty`);

const origin = values['time-origin'] === undefined ? undefined : Number(values['time-origin']);
if (origin !== undefined && !(Number.isInteger(origin) && origin > 0))
  fail('--time-origin: a time in epoch ms');
const start = origin ?? Date.now();
const clock = scale === 1 ? systemClock : new ScaledClock(scale, { real: start, fake: start });
const cloud = values.scenario === 'demo' ? buildDemoScenario(clock).cloud : new SimulatedCloud(clock);
const server = await startSimulatorServer({ cloud, port, host: values.host });
const o = DEMO_CREDENTIALS.oauth;
console.log(`Clever Cloud simulator on ${server.url} (scenario ${values.scenario}, time x${scale})`);
console.log(`  API_HOST=${server.url} CLEVER_TOKEN=${o.token} CLEVER_SECRET=${o.secret}`);
console.log(`  OAUTH_CONSUMER_KEY=${o.consumerKey} OAUTH_CONSUMER_SECRET=${o.consumerSecret}`);
if (scale !== 1) {
  console.log(
    `  time x${scale} from ${start}: npm run serve -- --api-url ${server.url} --time-scale ${scale} --time-origin ${start}`,
  );
}
console.log(`  control: GET ${server.url}/_sim/state, POST ${server.url}/_sim/apps/{id}/console-stop, ...`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(`closing the simulator on ${signal} failed:`, error);
        process.exit(1);
      },
    );
  });
}

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}
