/**
 * The settings every instance of a team must share, held in the database: the first instance writes
 * its own; the others compare theirs with it before taking part. Today one: the lease time. Two
 * instances with different lease times would each judge the other's leases expired or still held by
 * their own measure: owners change hands at every round and readiness flaps.
 *
 * An instance given no value (no --lease-seconds) takes the stored one, and says so. An instance given
 * another value than the stored one refuses to start while an instance of the team runs (a heartbeat,
 * or the value written, within the stored lease time), naming both values and how to fix it; with none
 * running (all stopped to change it), it writes its own, and says so. The SQL is the datastore's
 * (`SettingsTable`: store/postgres/pg-settings.ts).
 */
import type { Log } from '../../shared/log.ts';
import { DEFAULT_LEASE_MS } from './lease-keeper.ts';

/** A stored setting, read under the table's lock. */
export interface StoredSetting {
  value: string;
  /** The instance that wrote it. */
  setBy: string;
  /** Since it was written, on the database's clock. */
  ageMs: number;
  /** Since the freshest heartbeat of another instance (null: none), on the database's clock. */
  heartbeatAgeMs: number | null;
}

export interface SettingsTable {
  /**
   * In one transaction under a lock: read the setting `name` (null: never written), ask `decide`, and
   * write the value it answers (null: nothing to write) as set by `me`, whose heartbeats are not counted.
   */
  settle(name: string, me: string, decide: (stored: StoredSetting | null) => string | null): Promise<void>;
}

/** Another instance runs with a different value of a setting the team must share. */
export class SettingsDisagree extends Error {
  override name = 'SettingsDisagree';
}

export const LEASE_SETTING = 'lease_ms';

const seconds = (ms: number) => `${ms / 1000} s`;

/**
 * The lease time this instance uses: the stored one, or `wanted` (then written). Rejects with
 * SettingsDisagree when `wanted` differs from the stored one while an instance of the team runs.
 */
export async function agreeOnLeaseTime(
  table: SettingsTable,
  me: string,
  wanted: number | undefined,
  log?: Log,
): Promise<number> {
  let use = wanted ?? DEFAULT_LEASE_MS;
  await table.settle(LEASE_SETTING, me, (stored) => {
    if (!stored) {
      log?.(
        'info',
        `team mode: the lease time is ${seconds(use)}, written in the database for every instance`,
      );
      return String(use);
    }
    const agreed = Number(stored.value);
    if (!Number.isFinite(agreed) || agreed <= 0) {
      log?.(
        'warn',
        `team mode: the stored lease time '${stored.value.slice(0, 40)}' is not valid: ${seconds(use)} is written`,
      );
      return String(use);
    }
    if (wanted === undefined || wanted === agreed) {
      if (wanted === undefined && agreed !== DEFAULT_LEASE_MS)
        log?.(
          'info',
          `team mode: the lease time stored in the database is taken: ${seconds(agreed)} (no --lease-seconds given)`,
        );
      use = agreed;
      return null;
    }
    const running =
      stored.ageMs < agreed || (stored.heartbeatAgeMs !== null && stored.heartbeatAgeMs < agreed);
    if (running) {
      throw new SettingsDisagree(
        `team mode: --lease-seconds is ${wanted / 1000} here, but the instances running on this database use ${agreed / 1000} (written by ${stored.setBy}); every instance must use the same lease time. Start this one with --lease-seconds ${agreed / 1000} (or without it, to take the stored one), or stop every instance and start them all with --lease-seconds ${wanted / 1000}.`,
      );
    }
    log?.(
      'warn',
      `team mode: the lease time changes from ${seconds(agreed)} to ${seconds(wanted)} (no instance runs on this database now)`,
    );
    return String(wanted);
  });
  return use;
}
