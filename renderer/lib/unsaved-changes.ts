/**
 * A form with unsaved changes asks before it is left: closing it (Cancel, Escape, the dialog's close
 * button), switching view, or leaving the page (the browser's own beforeunload question).
 *
 * Generic: a form says whether it is dirty and with which question; `useUnsavedChanges` registers it
 * while mounted. Whatever leaves a form from outside it (the store switching view) calls
 * `confirmLeave()`, which asks the question of the first dirty form, if any. The question is the
 * caller's text (already translated), so this file holds no words.
 */
import { useCallback, useEffect, useRef } from 'react';

interface Guard {
  dirty(): boolean;
  question(): string;
}

const guards = new Set<Guard>();

/** How a question is asked (window.confirm; replaced in tests that cannot answer it). */
let ask: (question: string) => boolean = (question) =>
  typeof window !== 'undefined' && typeof window.confirm === 'function' ? window.confirm(question) : true;

/** Replace how the question is asked (tests, or a shell with its own confirmation); returns the old one. */
export function setAsk(next: (question: string) => boolean): (question: string) => boolean {
  const previous = ask;
  ask = next;
  return previous;
}

/** Whether some mounted form has unsaved changes. */
export function hasUnsavedChanges(): boolean {
  for (const guard of guards) if (guard.dirty()) return true;
  return false;
}

/**
 * True when the dashboard may leave what is shown: nothing unsaved, or the person agreed to lose it.
 * Asks once, with the question of the first dirty form.
 */
export function confirmLeave(): boolean {
  for (const guard of guards) if (guard.dirty()) return ask(guard.question());
  return true;
}

/**
 * Register a form: while `dirty`, leaving the page asks (beforeunload), and `confirmLeave()` (here or
 * from the store) asks `question`. Returns the form's own `confirmLeave`, for its Cancel and Escape.
 */
export function useUnsavedChanges(dirty: boolean, question: string): { confirmLeave: () => boolean } {
  const state = useRef({ dirty, question });
  state.current = { dirty, question };

  useEffect(() => {
    const guard: Guard = { dirty: () => state.current.dirty, question: () => state.current.question };
    guards.add(guard);
    return () => {
      guards.delete(guard);
    };
  }, []);

  useEffect(() => {
    if (!dirty || typeof window === 'undefined') return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      // Both: preventDefault for today's browsers, returnValue for the older ones.
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [dirty]);

  const confirmOwn = useCallback(() => !state.current.dirty || ask(state.current.question), []);
  return { confirmLeave: confirmOwn };
}
