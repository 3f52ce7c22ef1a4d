/** Global settings of the reaper, with the defaults of the product spec and their bounds. */
import { z } from 'zod';
import { HOUR, MINUTE, SECOND } from './durations.ts';
import { type FieldProblem, InputError } from './errors.ts';
import { parseIp } from './net.ts';
import { type KillSwitchOn, VIAS } from './people.ts';
import { type ProblemCode, says } from './validation.ts';
import { type WebhookConfig, webhooksSchema } from './webhooks.ts';

/**
 * How to read the flavor `price` of the Clever Cloud API (ApplicationView instance.minFlavor.price):
 * - drops-per-10-min: Clever Cloud drops per 10 minutes of one instance, worth `eurPerDrop` euros
 *   each (the default: what clever-ripper and Clever Cloud's old pricing simulator computed with);
 * - eur-per-hour: euros per hour of one instance (what the Terraform provider's documentation says).
 * The API itself states no unit: see shared/savings.ts for the sources.
 */
export const FLAVOR_PRICE_UNITS = ['drops-per-10-min', 'eur-per-hour'] as const;
export type FlavorPriceUnit = (typeof FLAVOR_PRICE_UNITS)[number];

export interface Settings {
  /** Kill switch: no app is put to sleep while on. Wakes still happen. */
  killSwitch: boolean;
  /**
   * When the kill switch was turned on, and by whom (issue 25): written by the reaper when it is
   * turned on, null when off; never part of an update.
   */
  killSwitchOn: KillSwitchOn | null;
  /** Dry-run: each sleep the reaper would have done is recorded in the history, nothing is stopped. */
  dryRun: boolean;
  /** job.interval: every app is evaluated at this pace. */
  intervalMs: number;
  /** job.fast-interval: apps in transit and apps a request just asked for. */
  fastIntervalMs: number;
  /** A stop or a start not completed within this time puts the app in Error. */
  failTimeoutMs: number;
  /** A start whose deployment does not appear within this time is sent again. */
  restartAfterMs: number;
  /** A route change noticed by the job releases its app after this delay. */
  releaseDelayMs: number;
  /**
   * After a wake, how long the front's "not routed yet" 404 is waited out (the ready gate's limit).
   * A held caller waits for the app to come up up to the fail timeout (then 504).
   */
  holdDeadlineMs: number;
  /** The wake proxy's port (it runs while a route has host names); 0 picks a free one. */
  wakeProxyPort: number;
  /** The address it listens on: loopback unless the operator opens it to the network. */
  wakeProxyAddress: string;
  /** History entries older than this are deleted (in small batches, off the job's path). */
  historyRetentionDays: number;
  /** Team alerts: called on entering Error, and on sleep and wake when asked. */
  webhooks: WebhookConfig[];
  /** The unit of the flavor price the API gives, for the savings estimate. */
  flavorPriceUnit: FlavorPriceUnit;
  /** Euros per Clever Cloud drop, when the price is read in drops. */
  eurPerDrop: number;
}

export const DEFAULT_SETTINGS: Settings = {
  killSwitch: false,
  killSwitchOn: null,
  dryRun: false,
  intervalMs: 30 * SECOND,
  fastIntervalMs: 5 * SECOND,
  failTimeoutMs: 15 * MINUTE,
  restartAfterMs: MINUTE,
  releaseDelayMs: 5 * MINUTE,
  holdDeadlineMs: 2 * MINUTE,
  wakeProxyPort: 7411,
  wakeProxyAddress: '127.0.0.1',
  historyRetentionDays: 180,
  webhooks: [],
  flavorPriceUnit: 'drops-per-10-min',
  eurPerDrop: 0.0097,
};

/** `killSwitchOn` as kept with the settings (read back; an update never sets it). */
export const killSwitchOnSchema = z
  .object({
    at: z.number().int().min(0),
    by: z.object({ name: z.string().min(1).max(200), via: z.enum(VIAS) }).nullable(),
  })
  .nullable();

/** A duration in milliseconds; its problems are said in the unit its form shows (validation.ts). */
const ms = (min: number, max: number) => z.number().int().min(min).max(max);

export const settingsUpdateSchema = z
  .object({
    killSwitch: z.boolean(),
    dryRun: z.boolean(),
    intervalMs: ms(SECOND, HOUR),
    fastIntervalMs: ms(SECOND, 10 * MINUTE),
    failTimeoutMs: ms(MINUTE, 24 * HOUR),
    restartAfterMs: ms(10 * SECOND, HOUR),
    releaseDelayMs: ms(0, 24 * HOUR),
    holdDeadlineMs: ms(SECOND, HOUR),
    wakeProxyPort: z
      .number()
      .int()
      .refine((p) => p === 0 || (p >= 1024 && p <= 65535), says('port')),
    wakeProxyAddress: z.string().refine((a) => parseIp(a) !== null, says('address')),
    historyRetentionDays: z.number().int().min(1).max(3650),
    webhooks: webhooksSchema,
    flavorPriceUnit: z.enum(FLAVOR_PRICE_UNITS),
    eurPerDrop: z.number().positive().max(10),
  })
  .partial()
  .strict();
export type SettingsUpdate = z.input<typeof settingsUpdateSchema>;

/** A problem of one field of the settings, said for people (see validation.ts). */
export type SettingsProblem = FieldProblem & { field: keyof Settings };

/** Problems of a whole settings object, beyond each field's own bounds. */
export function settingsProblems(s: Settings): SettingsProblem[] {
  const problem = (field: keyof Settings, code: ProblemCode, other: keyof Settings): SettingsProblem[] =>
    InputError.of(field, code, {
      value: s[field] as number,
      other: s[other] as number,
      otherField: other,
    }).problems.map((p) => ({ ...p, field }));
  return [
    ...(s.fastIntervalMs > s.intervalMs ? problem('fastIntervalMs', 'fastOverInterval', 'intervalMs') : []),
    ...(s.restartAfterMs >= s.failTimeoutMs
      ? problem('restartAfterMs', 'restartNotBeforeFail', 'failTimeoutMs')
      : []),
  ];
}
