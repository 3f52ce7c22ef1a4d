/**
 * The simulator's API routes for the user, the owners, the applications (start and stop included),
 * their instances, their deployments and their domains: the paths, methods and shapes of Clever
 * Cloud's v2 API.
 */
import type { SimulatedCloud } from './model.ts';
import { OWNER, type Replies, type Route } from './routing.ts';
import {
  applicationView,
  deploymentView,
  instanceView,
  message,
  organisationView,
  userView,
} from './views.ts';

export function appRoutes(cloud: SimulatedCloud, replies: Replies): Route[] {
  const { send, fail, ownerOf, appOf } = replies;
  return [
    { method: 'GET', pattern: /^\/v2\/self$/, handler: async (ctx) => send(ctx, 200, userView(cloud)) },
    {
      method: 'GET',
      pattern: /^\/v2\/organisations$/,
      // Like the real list, it holds the personal space too (clients filter on the orga_ prefix).
      handler: async (ctx) => send(ctx, 200, [cloud.user, ...cloud.organisations].map(organisationView)),
    },
    {
      method: 'GET',
      pattern: new RegExp(`^/v2/${OWNER}/applications$`),
      handler: async (ctx, [owner]) => {
        const ownerId = ownerOf(ctx, owner);
        if (ownerId) send(ctx, 200, cloud.appsOf(ownerId).map(applicationView));
      },
    },
    {
      method: 'GET',
      pattern: new RegExp(`^/v2/${OWNER}/applications/([^/]+)$`),
      handler: async (ctx, [owner, appId]) => {
        const app = appOf(ctx, owner, appId!);
        if (app) send(ctx, 200, applicationView(app));
      },
    },
    {
      method: 'POST',
      pattern: new RegExp(`^/v2/${OWNER}/applications/([^/]+)/instances$`),
      handler: async (ctx, [owner, appId]) => {
        const app = appOf(ctx, owner, appId!);
        if (!app) return;
        const { deploymentId } = cloud.start(app.ownerId, app.id);
        send(ctx, 200, { ...message(0, 'The application has been deployed', 'success'), deploymentId });
      },
    },
    {
      method: 'GET',
      pattern: new RegExp(`^/v2/${OWNER}/applications/([^/]+)/instances$`),
      handler: async (ctx, [owner, appId]) => {
        const app = appOf(ctx, owner, appId!);
        if (app)
          send(
            ctx,
            200,
            cloud.instances(app).map((i) => instanceView(app, i)),
          );
      },
    },
    {
      method: 'DELETE',
      pattern: new RegExp(`^/v2/${OWNER}/applications/([^/]+)/instances$`),
      handler: async (ctx, [owner, appId]) => {
        const app = appOf(ctx, owner, appId!);
        if (!app) return;
        cloud.stop(app.ownerId, app.id);
        send(ctx, 200, message(0, 'The application has been stopped', 'success'));
      },
    },
    {
      method: 'GET',
      pattern: new RegExp(`^/v2/${OWNER}/applications/([^/]+)/deployments$`),
      handler: async (ctx, [owner, appId]) => {
        const app = appOf(ctx, owner, appId!);
        if (!app) return;
        const limit = Number(ctx.url.searchParams.get('limit') ?? '1000');
        const offset = Number(ctx.url.searchParams.get('offset') ?? '0');
        const list = cloud.deployments(app).slice(offset, offset + (Number.isFinite(limit) ? limit : 1000));
        send(ctx, 200, list.map(deploymentView));
      },
    },
    {
      method: 'GET',
      pattern: new RegExp(`^/v2/${OWNER}/applications/([^/]+)/deployments/([^/]+)$`),
      handler: async (ctx, [owner, appId, depId]) => {
        const app = appOf(ctx, owner, appId!);
        if (!app) return;
        const d = cloud.deployments(app).find((x) => x.uuid === decodeURIComponent(depId!));
        if (d) send(ctx, 200, deploymentView(d));
        else fail(ctx, 404, 4004, 'Deployment not found');
      },
    },
    {
      method: 'GET',
      pattern: new RegExp(`^/v2/${OWNER}/applications/([^/]+)/vhosts$`),
      handler: async (ctx, [owner, appId]) => {
        const app = appOf(ctx, owner, appId!);
        if (app)
          send(
            ctx,
            200,
            app.vhosts.map((fqdn) => ({ fqdn })),
          );
      },
    },
  ];
}
