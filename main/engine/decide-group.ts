/**
 * Groups: apps that sleep and wake together (a review environment's front, API and worker). Each
 * member keeps the lifecycle of the spec (its own state, causes and history); the group adds two
 * things: a request for any member wakes the sleeping others (engine.ts, `request`), and an Up
 * member is put to sleep only when every other awake member may be too (here: a blocker, as data).
 *
 * A member in Error is left alone, as the spec says, and does not hold the others awake: the group
 * says so (`groupNotes`). Pure: no timers, no I/O.
 */
import { type AppRecord, assertNever, CONSOLE_LABELS, type ReaperState } from '../../shared/domain.ts';

/** Another member of an app's group, as the decisions of that app see it. */
export interface GroupMember {
  appId: string;
  name: string;
  state: ReaperState;
  /** Up: why the member may not sleep on its own now (its sleepBlocker), null when it may. */
  blocker: string | null;
  /** Up: when the member becomes due for sleep on its own (its sleepDueAt). */
  dueAt: number | null;
}

export interface GroupContext {
  name: string;
  /** The other members (the app itself left out). */
  members: GroupMember[];
}

const iso = (t: number) => new Date(t).toISOString();

/** Why the group holds an Up member awake: the first other member that is not ready to sleep. */
export function groupSleepBlocker(group: GroupContext): string | null {
  for (const m of group.members) {
    switch (m.state) {
      case 'Error':
      case 'Down':
      case 'WaitingForShutdown':
        continue;
      case 'WaitingForInit':
      case 'WaitingForUp':
        return `waiting for group member ${m.name} (${CONSOLE_LABELS[m.state].toLowerCase()})`;
      case 'Up': {
        if (m.blocker === null) continue;
        const detail =
          m.blocker === 'traffic within the grace period' && m.dueAt !== null
            ? `grace period ends at ${iso(m.dueAt)}`
            : m.dueAt !== null
              ? `${m.blocker}, until ${iso(m.dueAt)}`
              : m.blocker;
        return `waiting for group member ${m.name} (${detail})`;
      }
      default:
        return assertNever(m.state);
    }
  }
  return null;
}

/**
 * When an Up member becomes due for sleep with its group: its own due time, or later when another
 * awake member is due later. Null when it is not due at all (its own due time is null).
 */
export function groupSleepDueAt(own: number | null, group: GroupContext | undefined): number | null {
  if (own === null || !group) return own;
  let at = own;
  for (const m of group.members) if (m.state === 'Up' && m.dueAt !== null && m.dueAt > at) at = m.dueAt;
  return at;
}

/** What the group says about its members: the ones in Error, which do not hold the others. */
export function groupNotes(members: readonly Pick<AppRecord, 'name' | 'state' | 'cause'>[]): string[] {
  return members
    .filter((m) => m.state === 'Error')
    .map((m) => `${m.name} is in Error (${m.cause ?? 'unknown cause'}): it does not hold the group awake`);
}

/** Members a request for one of them wakes: the others that sleep, or are going to, or not read yet. */
export function membersToWake<R extends Pick<AppRecord, 'appId' | 'state' | 'wakeRequestedAt'>>(
  requested: string,
  members: readonly R[],
): R[] {
  return members.filter(
    (m) =>
      m.appId !== requested &&
      m.wakeRequestedAt === null &&
      (m.state === 'Down' || m.state === 'WaitingForShutdown' || m.state === 'WaitingForInit'),
  );
}
