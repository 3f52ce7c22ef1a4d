/**
 * The engine's Clever Cloud port served straight from a SimulatedCloud, without HTTP: for engine
 * tests that are about decisions and time, not about the wire (those go through the real client).
 */

import { CleverCallError } from '../../shared/port-errors.ts';
import type { CleverApp, CleverCloudPort, CleverDeployment, CleverOwner } from '../engine/ports.ts';
import { type SimApp, SimError, type SimulatedCloud } from './model.ts';

export function toCleverApp(app: SimApp): CleverApp {
  return {
    id: app.id,
    ownerId: app.ownerId,
    name: app.name,
    state: app.state,
    lastDeployNumber: app.lastDeploy,
    instances: {
      min: app.minInstances,
      max: app.maxInstances,
      flavorName: app.flavor.name,
      flavorPrice: app.flavor.price,
    },
    vhosts: [...app.vhosts],
    lifetime: app.lifetime,
  };
}

export class InProcessCleverPort implements CleverCloudPort {
  readonly calls = new Map<string, number>();
  private readonly cloud: SimulatedCloud;

  constructor(cloud: SimulatedCloud) {
    this.cloud = cloud;
  }

  private count(name: string): void {
    this.calls.set(name, (this.calls.get(name) ?? 0) + 1);
  }

  get totalCalls(): number {
    let n = 0;
    for (const v of this.calls.values()) n += v;
    return n;
  }

  async listOwners(): Promise<CleverOwner[]> {
    this.count('listOwners');
    return [this.cloud.user, ...this.cloud.organisations].map((o) => ({ id: o.id, name: o.name }));
  }

  async listApplications(ownerId: string): Promise<CleverApp[]> {
    this.count('listApplications');
    return this.cloud.appsOf(ownerId).map(toCleverApp);
  }

  async getApplication(ownerId: string, appId: string): Promise<CleverApp | null> {
    this.count('getApplication');
    const app = this.cloud.app(ownerId, appId);
    return app ? toCleverApp(app) : null;
  }

  async listDeployments(
    ownerId: string,
    appId: string,
    options: { limit?: number } = {},
  ): Promise<CleverDeployment[]> {
    this.count('listDeployments');
    const app = this.cloud.app(ownerId, appId);
    if (!app) return [];
    return this.cloud
      .deployments(app)
      .slice(0, options.limit ?? 10)
      .map((d) => ({ uuid: d.uuid, state: d.state, action: d.action, date: d.date, cause: d.cause }));
  }

  async startApplication(ownerId: string, appId: string): Promise<{ deploymentId: string | null }> {
    this.count('startApplication');
    return this.wrap(() => this.cloud.start(ownerId, appId));
  }

  async stopApplication(ownerId: string, appId: string): Promise<void> {
    this.count('stopApplication');
    this.wrap(() => this.cloud.stop(ownerId, appId));
  }

  private wrap<T>(fn: () => T): T {
    try {
      return fn();
    } catch (error) {
      if (error instanceof SimError) {
        const kind = error.id === 4014 ? 'never-deployed' : error.status === 404 ? 'not-found' : 'client';
        throw new CleverCallError(kind, error.message, { status: error.status, cleverId: error.id });
      }
      throw error;
    }
  }
}
