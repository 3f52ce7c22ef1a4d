/**
 * A form with unsaved changes asks before it is left: closing it (Cancel, Escape, the dialog's close
 * button), switching view, or leaving the page (the browser's own beforeunload question: a browser
 * shows only its own dialog there).
 *
 * Generic: a form says whether it is dirty and with which question; `useUnsavedChanges` registers it
 * while mounted. Whatever leaves a form from outside it (the store switching view) calls
 * `confirmLeave()`, which asks the question of the first dirty form, if any, and answers once the
 * person has. The question is asked in the page's own dialog (components/common/DiscardDialog.tsx
 * shows `pendingQuestion()`), so this file holds no words: the question is the caller's text.
 */
import { useCallback, useEffect, useRef } from 'react';

interface Guard {
  dirty(): boolean;
  question(): string;
}

const guards = new Set<Guard>();

/** The question asked now, if any, and how its answer is given. */
interface Pending {
  question: string;
  answer(leave: boolean): void;
  answered: Promise<boolean>;
}

let pending: Pending | null = null;
const listeners = new Set<() => void>();

/** The question the page's dialog shows now (null: none). */
export function pendingQuestion(): { question: string; answer: (leave: boolean) => void } | null {
  return pending;
}

/** Be told when a question is asked or answered; returns the function that stops it. */
export function onQuestion(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** Ask in the page's dialog; a question asked while another is shown waits on the same answer. */
function askInPage(question: string): Promise<boolean> {
  if (pending) return pending.answered;
  let settle!: (leave: boolean) => void;
  const answered = new Promise<boolean>((resolve) => {
    settle = resolve;
  });
  const asked: Pending = {
    question,
    answered,
    answer(leave) {
      if (pending !== asked) return;
      pending = null;
      for (const listener of listeners) listener();
      settle(leave);
    },
  };
  pending = asked;
  for (const listener of listeners) listener();
  return answered;
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
export function confirmLeave(): Promise<boolean> {
  for (const guard of guards) if (guard.dirty()) return askInPage(guard.question());
  return Promise.resolve(true);
}

/** Go at once when nothing unsaved is left behind; else, through `perform`, once the person agreed to lose it. */
export function leaveOr(
  leaves: boolean,
  go: () => void,
  perform: (task: () => Promise<unknown>) => void,
): void {
  if (!leaves || !hasUnsavedChanges()) {
    go();
    return;
  }
  perform(async () => {
    if (await confirmLeave()) go();
  });
}

/**
 * Register a form: while `dirty`, leaving the page asks (beforeunload), and `confirmLeave()` (here or
 * from the store) asks `question`. Returns the form's own `confirmLeave`, for its Cancel and Escape.
 */
export function useUnsavedChanges(
  dirty: boolean,
  question: string,
): { confirmLeave: () => Promise<boolean> } {
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

  const confirmOwn = useCallback(
    () => (state.current.dirty ? askInPage(state.current.question) : Promise.resolve(true)),
    [],
  );
  return { confirmLeave: confirmOwn };
}
