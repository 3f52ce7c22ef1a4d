/** The app record's fields and their columns, in table order: the same on SQLite and PostgreSQL. */
import type { AppRecord } from '../../shared/domain.ts';

/** Record fields and their columns, in table order. */
export const COLUMNS: [keyof AppRecord, string][] = [
  ['appId', 'app_id'],
  ['ownerId', 'owner_id'],
  ['name', 'name'],
  ['state', 'state'],
  ['stateSince', 'state_since'],
  ['cameUpAt', 'came_up_at'],
  ['lastRequestAt', 'last_request_at'],
  ['lastRequestSource', 'last_request_source'],
  ['stopAskedAt', 'stop_asked_at'],
  ['firstStartAskedAt', 'first_start_asked_at'],
  ['lastStartAskedAt', 'last_start_asked_at'],
  ['deploymentId', 'deployment_id'],
  ['cause', 'cause'],
  ['pendingCall', 'pending_call'],
  ['wakeRequestedAt', 'wake_requested_at'],
  ['keepAwakeUntil', 'keep_awake_until'],
  ['releaseNoticedAt', 'release_noticed_at'],
  ['cleverState', 'clever_state'],
  ['lastDeployNumber', 'last_deploy_number'],
  ['redeploySeenAt', 'redeploy_seen_at'],
  ['dryRunSleepNotedAt', 'dry_run_sleep_noted_at'],
  ['notice', 'notice'],
  ['knownDeploymentId', 'known_deployment_id'],
];
