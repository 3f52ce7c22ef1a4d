/**
 * The JSON the simulator answers with, field for field as the published Clever Cloud schemas
 * (UserView, OrganisationView, ApplicationView, v2 deployments, vhosts, Message, ACCESS_LOG events).
 * The contract test checks every one against the OpenAPI excerpt, with no extra property.
 */
import type {
  AccessLogEntry,
  SimApp,
  SimDeployment,
  SimInstance,
  SimOwner,
  SimulatedCloud,
} from './model.ts';

export function userView(cloud: SimulatedCloud) {
  const u = cloud.user;
  return {
    id: u.id,
    email: 'demo@example.com',
    name: u.name,
    phone: '',
    address: '',
    city: '',
    zipcode: '',
    country: 'FRANCE',
    avatar: '',
    creationDate: Date.UTC(2020, 0, 1),
    lang: 'EN',
    emailValidated: true,
    oauthApps: [],
    admin: false,
    canPay: true,
    preferredMFA: 'NONE',
    hasPassword: true,
  };
}

export function organisationView(owner: SimOwner) {
  return {
    id: owner.id,
    name: owner.name,
    description: '',
    billingEmail: 'billing@example.com',
    address: '',
    city: '',
    zipcode: '',
    country: 'FRANCE',
    company: owner.name,
    VAT: '',
    avatar: '',
    vatState: 'NOT_NEEDED',
    customerFullName: owner.name,
    canPay: true,
    cleverEnterprise: false,
    emergencyNumber: '',
    canSEPA: false,
    isTrusted: true,
  };
}

function flavorView(f: SimApp['flavor']) {
  return {
    name: f.name,
    mem: f.mem,
    cpus: f.cpus,
    gpus: 0,
    disk: 0,
    price: f.price,
    available: true,
    microservice: false,
    machine_learning: false,
    nice: 0,
    price_id: `apps.${f.name}`,
    memory: { unit: 'B', value: f.mem * 1024 * 1024, formatted: `${f.mem / 1024} GiB` },
    cpuFactor: 1,
    memFactor: 1,
  };
}

export function applicationView(app: SimApp) {
  return {
    id: app.id,
    name: app.name,
    description: app.name,
    zone: 'par',
    zoneId: 'par',
    instance: {
      type: app.instanceType,
      version: '20260101',
      variant: {
        id: '11111111-2222-4333-8444-555555555555',
        slug: app.instanceType,
        name: 'Node',
        deployType: app.instanceType,
        logo: '',
      },
      minInstances: app.minInstances,
      maxInstances: app.maxInstances,
      maxAllowedInstances: 40,
      minFlavor: flavorView(app.flavor),
      maxFlavor: flavorView(app.flavor),
      flavors: [flavorView(app.flavor)],
      defaultEnv: {},
      lifetime: app.lifetime,
      instanceAndVersion: `${app.instanceType}-20260101`,
    },
    deployment: {
      shutdownable: true,
      type: 'GIT',
      repoState: 'CREATED',
      url: `git+ssh://git@push.example.com/${app.id}.git`,
      httpUrl: `https://push.example.com/${app.id}.git`,
    },
    vhosts: app.vhosts.map((fqdn) => ({ fqdn })),
    creationDate: app.creationDate,
    last_deploy: app.lastDeploy,
    archived: false,
    stickySessions: false,
    homogeneous: false,
    favourite: false,
    cancelOnPush: false,
    webhookUrl: '',
    webhookSecret: '',
    separateBuild: false,
    buildFlavor: flavorView(app.flavor),
    ownerId: app.ownerId,
    state: app.state,
    commitId: app.commitId ?? '',
    appliance: '',
    branch: 'master',
    forceHttps: 'DISABLED',
    env: [],
    deployUrl: `https://push.example.com/${app.id}.git`,
  };
}

/** A v2 deployment: the list already shows a QUEUED one as WIP (or not at all); no `action` when absent. */
export function deploymentView(d: SimDeployment) {
  return {
    id: d.id,
    uuid: d.uuid,
    date: d.date,
    state: d.state,
    ...(d.action ? { action: d.action } : {}),
    commit: d.commit,
    cause: d.cause,
    instances: d.instances,
    author: { id: d.author.id, name: d.author.name },
  };
}

/** A v2 instance (OpenAPI `listOrganisationApplicationInstances`, api notes 2.8). */
export function instanceView(app: SimApp, i: SimInstance) {
  return {
    id: i.id,
    appId: i.appId,
    ip: '10.0.0.1',
    appPort: 8080,
    state: i.state,
    flavor: { name: app.flavor.name, mem: app.flavor.mem, cpus: app.flavor.cpus, price: app.flavor.price },
    commit: app.commitId ?? '',
    deployNumber: app.lastDeploy,
    deployId: i.deployId,
    instanceNumber: i.instanceNumber,
    displayName: `${app.name}-${i.instanceNumber}`,
    creationDate: i.creationDate,
  };
}

export function message(id: number, text: string, type: 'error' | 'warning' | 'success' | 'info') {
  return { id, message: text, type };
}

/** An ACCESS_LOG event's data, in the documented shape (no `http` for a connection without a request). */
export function accessLogView(e: AccessLogEntry) {
  const view = {
    id: e.id,
    date: new Date(e.date).toISOString(),
    applicationId: e.appId,
    instanceId: `instance_${e.appId.slice(4, 12)}`,
    requestId: e.id,
    bytesIn: 512,
    bytesOut: 2048,
    tls: true,
    zone: 'par',
    source: {
      ip: e.sourceIp,
      port: 54321,
      city: 'Paris',
      countryCode: 'FR',
      geoLocation: { latitude: 48.85, longitude: 2.35 },
    },
    destination: { ip: '10.0.0.1', port: 8080, city: 'Paris', countryCode: 'FR', geoLocation: null },
    http: {
      request: { host: e.host, method: e.method, path: e.path, scheme: 'https' },
      response: { statusCode: e.statusCode, time: 12 },
    },
  };
  if (!e.noHttp) return view;
  const { http: _http, ...withoutHttp } = view;
  return withoutHttp;
}
