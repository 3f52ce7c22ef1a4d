/**
 * The smallest cloud a team server's people tests need: one organisation (Acme) with one app (shop),
 * on the simulator over HTTP, on a real-time clock. Test-only.
 */
import { ScaledClock } from '../engine/clocks.ts';
import { SimulatedCloud } from '../simulator/model.ts';
import { type SimulatorServer, startSimulatorServer } from '../simulator/server.ts';

export async function shopOnSimulator(): Promise<{
  clock: ScaledClock;
  cloud: SimulatedCloud;
  sim: SimulatorServer;
}> {
  const clock = new ScaledClock(1, { real: Date.now(), fake: Date.now() });
  const cloud = new SimulatedCloud(clock);
  cloud.addApp(cloud.addOrganisation('Acme').id, 'shop');
  const sim = await startSimulatorServer({ cloud });
  return { clock, cloud, sim };
}
