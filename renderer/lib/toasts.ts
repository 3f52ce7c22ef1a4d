/**
 * Toasts that do not pile up: toasts of one kind heard within a short window are one toast, updated
 * in place ("3 apps went to Error"), and only the newest few are shown, with how many more there are.
 */
import { i18n } from '../i18n.ts';

export interface Toast {
  id: number;
  kind: 'alert' | 'error' | 'info';
  text: string;
  /** What makes toasts one: 'alert', 'released', or the kind and text of any other toast. */
  group: string;
  /** The apps a grouped toast is about, in the order heard (empty for a toast about no app). */
  names: string[];
  /** How many toasts this one stands for. */
  count: number;
  /** When it was last updated (its time on screen starts again then). */
  at: number;
}

export interface ToastInput {
  kind: Toast['kind'];
  text: string;
  /** Toasts with one group are grouped; without, the kind and text are the group. */
  group?: string;
  /** The app it is about. */
  name?: string;
}

/** Toasts of one group heard within this long of the last one become one toast. */
export const GROUP_WINDOW_MS = 10_000;
/** How many toasts show at once; the rest are counted ("and 2 more"). */
export const TOAST_CAP = 3;
/** How many are kept at all (the oldest are dropped). */
const KEEP = 20;

/** The text of a toast standing for several: the group, the names heard, how many. */
export type GroupText = (toast: { group: string; names: string[]; count: number; text: string }) => string;

/**
 * The toasts with `input` added at `now`: merged into a toast of its group heard within the window
 * (which keeps its place and id, its text and time updated), or added as a new toast with `nextId`.
 * Returns the toast added or updated, whose timer starts again.
 */
export function addToast(
  toasts: readonly Toast[],
  input: ToastInput,
  now: number,
  nextId: number,
  groupText: GroupText,
): { toasts: Toast[]; toast: Toast } {
  const group = input.group ?? `${input.kind}:${input.text}`;
  const index = toasts.findIndex((t) => t.group === group && now - t.at <= GROUP_WINDOW_MS);
  if (index >= 0) {
    const old = toasts[index]!;
    const names = input.name && !old.names.includes(input.name) ? [...old.names, input.name] : old.names;
    const count = old.count + 1;
    const toast: Toast = {
      ...old,
      names,
      count,
      at: now,
      text: groupText({ group, names, count, text: input.text }),
    };
    const next = [...toasts];
    next[index] = toast;
    return { toasts: next, toast };
  }
  const toast: Toast = {
    id: nextId,
    kind: input.kind,
    text: input.text,
    group,
    names: input.name ? [input.name] : [],
    count: 1,
    at: now,
  };
  return { toasts: [...toasts, toast].slice(-KEEP), toast };
}

/** The toasts to show (the newest `cap`) and how many more there are. */
export function shownToasts(toasts: readonly Toast[], cap = TOAST_CAP): { shown: Toast[]; more: number } {
  if (toasts.length <= cap) return { shown: [...toasts], more: 0 };
  return { shown: toasts.slice(-cap), more: toasts.length - cap };
}

/** The toasts without the one whose time is up: `at` is when its timer started (an update restarts it). */
export function expireToast(toasts: readonly Toast[], id: number, at: number): Toast[] | null {
  const index = toasts.findIndex((t) => t.id === id && t.at === at);
  if (index < 0) return null;
  return toasts.filter((_, i) => i !== index);
}

/** A few names of a list, then how many others: "api, shop, wiki" or "api, shop, wiki +4". */
export function someNames(names: readonly string[], max = 3): string {
  const head = names.slice(0, max).join(', ');
  return names.length > max ? `${head} +${names.length - max}` : head;
}

/** The dashboard's wording of a toast standing for several, in the language of the screen. */
export const toastGroupText: GroupText = ({ group, names, count, text }) => {
  if (group === 'alert')
    return i18n.t('shell:toasts.alertMany', { count: names.length, names: someNames(names) });
  if (group === 'released') {
    return i18n.t('shell:toasts.releasedMany', { count: names.length, names: someNames(names) });
  }
  return i18n.t('shell:toasts.repeated', { text, count });
};
