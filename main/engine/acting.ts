/**
 * Who a manual action is asked by (issue 25): the HTTP transport runs each call as its person
 * (`actingAs`), the desktop as its local user, and the journal writes it as the history entry's `by`
 * on the entries a person asked for (actor 'operator'). Carried with the call's async context, so
 * the engine's methods keep their signatures; the engine's timers run outside any person
 * (`outsideActing`), so that a sweep armed during a call is never written as that person's.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { By } from '../../shared/people.ts';

const acting = new AsyncLocalStorage<By>();

/** Run `fn` as `by` (null: as nobody, an automatic action). */
export function actingAs<T>(by: By | null, fn: () => T): T {
  return by ? acting.run({ name: by.name, via: by.via }, fn) : acting.exit(fn);
}

/** The person the current call is asked by, or null. */
export function actingNow(): By | null {
  return acting.getStore() ?? null;
}

/** `fn` as it runs from a timer: outside any person's call. */
export function outsideActing(fn: () => void): () => void {
  return () => acting.exit(fn);
}
