/**
 * The simulator's control API under /_sim/: what tests and the demo do to the simulated platform
 * (organisations, apps, outside actions, deployment outcomes, traffic, API faults) and what they read
 * of it (its state, the call counts).
 */
import type { CleverState } from '../../shared/domain.ts';
import { describeError } from '../../shared/log.ts';
import type { Fault } from './api-faults.ts';
import type { DeploymentAction, DeploymentOutcome, SimApp, SimulatedCloud } from './model.ts';
import { type Ctx, JSON_HEADERS } from './routing.ts';
import { deploymentView } from './views.ts';

/** The final states a placed previous deployment may have (v2 states). */
const PLACED_STATES = ['OK', 'FAIL', 'CANCELLED', 'WIP', 'TASK_RUNNING'];

/** The control API: what tests and the demo do to the simulated platform. Loopback only, no auth. */
export function createControl(
  cloud: SimulatedCloud,
  faults: Fault[],
  calls: Map<string, number>,
  outcomes: Map<string, number>,
) {
  const json = (ctx: Ctx, status: number, body: unknown) => {
    ctx.res.writeHead(status, JSON_HEADERS);
    ctx.res.end(JSON.stringify(body));
  };
  const summary = (app: SimApp) => ({
    id: app.id,
    ownerId: app.ownerId,
    name: app.name,
    state: app.state,
    lastDeploy: app.lastDeploy,
    deployments: cloud.deployments(app).map(deploymentView),
  });
  return (ctx: Ctx, body: unknown) => {
    const b = (body ?? {}) as Record<string, unknown>;
    const path = ctx.url.pathname;
    const method = ctx.req.method;
    try {
      if (method === 'GET' && path === '/_sim/state') {
        return json(ctx, 200, {
          now: cloud.clock.now(),
          user: cloud.user,
          organisations: cloud.organisations,
          apps: [...cloud.apps.values()].map((a) => summary(cloud.app(a.ownerId, a.id)!)),
        });
      }
      if (method === 'GET' && path === '/_sim/calls') {
        return json(ctx, 200, { calls: Object.fromEntries(calls), outcomes: Object.fromEntries(outcomes) });
      }
      if (method === 'POST' && path === '/_sim/organisations') {
        return json(ctx, 201, cloud.addOrganisation(String(b.name ?? 'Organisation')));
      }
      if (method === 'POST' && path === '/_sim/apps') {
        const app = cloud.addApp(String(b.ownerId ?? cloud.user.id), String(b.name ?? 'app'), {
          ...(b.state ? { state: String(b.state) as CleverState } : {}),
          ...(b.neverDeployed ? { neverDeployed: true } : {}),
          ...(typeof b.deployDurationMs === 'number' ? { deployDurationMs: b.deployDurationMs } : {}),
        });
        return json(ctx, 201, summary(app));
      }
      if (method === 'POST' && path === '/_sim/faults') {
        faults.push({ count: 1, ...(b as object) } as Fault);
        return json(ctx, 201, { faults });
      }
      if (method === 'DELETE' && path === '/_sim/faults') {
        faults.splice(0);
        return json(ctx, 200, { faults });
      }
      const gone = /^\/_sim\/apps\/([^/]+)$/.exec(path);
      if (method === 'DELETE' && gone) {
        const app = cloud.deleteApp(decodeURIComponent(gone[1]!));
        return json(ctx, 200, { deleted: app.id, ownerId: app.ownerId, name: app.name });
      }
      const m = /^\/_sim\/apps\/([^/]+)\/([a-z-]+)$/.exec(path);
      if (method === 'POST' && m) {
        const appId = decodeURIComponent(m[1]!);
        switch (m[2]) {
          case 'outcomes':
            cloud.injectOutcomes(appId, ...((b.outcomes as DeploymentOutcome[]) ?? []));
            break;
          case 'console-stop':
            cloud.consoleStop(appId);
            break;
          case 'console-start':
            cloud.consoleStart(appId);
            break;
          case 'clever-tools-restart':
            cloud.cleverToolsRestart(appId);
            break;
          case 'git-push':
            cloud.gitPush(appId);
            break;
          case 'previous-deployment': {
            // A previous deployment placed before a start: {ageMs: 5000, state: 'FAIL'}.
            const ageMs = Number(b.ageMs ?? 0);
            if (!Number.isFinite(ageMs) || ageMs < 0)
              throw new Error('ageMs must be a number of ms, 0 or more');
            const state = String(b.state ?? 'OK');
            if (!PLACED_STATES.includes(state)) {
              throw new Error(`state must be one of ${PLACED_STATES.join(', ')}, not ${state}`);
            }
            cloud.placeDeployment(appId, ageMs, state);
            break;
          }
          case 'state':
            cloud.setState(appId, String(b.state) as CleverState);
            break;
          case 'activity':
            // An autoscaling or maintenance entry: {action: 'UPSCALE' | ... | null, state: 'FAIL' | ...}.
            cloud.addActivity(
              appId,
              b.action === null ? null : (String(b.action ?? 'UPSCALE') as DeploymentAction),
              String(b.state ?? 'OK'),
            );
            break;
          case 'stop-never-completes':
            cloud.setStopNeverCompletes(appId, b.never !== false);
            break;
          case 'requests': {
            const count = Math.min(Number(b.count ?? 1), 10_000);
            for (let i = 0; i < count; i++) {
              cloud.recordRequest(appId, {
                ...(typeof b.path === 'string' ? { path: b.path } : {}),
                ...(typeof b.sourceIp === 'string' ? { sourceIp: b.sourceIp } : {}),
                ...(b.noHttp === true ? { noHttp: true } : {}),
              });
            }
            break;
          }
          default:
            return json(ctx, 404, { error: `unknown action ${m[2]}` });
        }
        const app = cloud.apps.get(appId)!;
        return json(ctx, 200, summary(cloud.app(app.ownerId, appId)!));
      }
      return json(ctx, 404, { error: `no control route ${method} ${path}` });
    } catch (error) {
      return json(ctx, 400, { error: describeError(error) });
    }
  };
}
