/**
 * Toasts group and are capped: many apps going to Error close together make one toast, updated in
 * place; a toast heard after the window is a new one; only the newest few show, the rest counted.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from '../i18n.ts';
import {
  addToast,
  expireToast,
  GROUP_WINDOW_MS,
  shownToasts,
  someNames,
  TOAST_CAP,
  type Toast,
  type ToastInput,
  toastGroupText,
} from './toasts.ts';

const alert = (name: string): ToastInput => ({
  kind: 'alert',
  group: 'alert',
  name,
  text: `${name} is in Error: x`,
});

/** Adds the inputs in order at the given times, numbering new toasts as the store does. */
function run(inputs: [ToastInput, number][]): Toast[] {
  let toasts: Toast[] = [];
  let id = 0;
  for (const [input, at] of inputs) {
    const next = addToast(toasts, input, at, id + 1, toastGroupText);
    toasts = next.toasts;
    id = Math.max(id, next.toast.id);
  }
  return toasts;
}

afterEach(async () => {
  await i18n.changeLanguage('en');
});

describe('toast grouping', () => {
  it('makes one toast of many apps going to Error together, in place, naming a few', () => {
    const toasts = run([
      [alert('api'), 1000],
      [{ kind: 'info', text: 'saved' }, 1001],
      [alert('shop'), 1002],
      [alert('wiki'), 1003],
      [alert('blog'), 1004],
    ]);
    expect(toasts.map((t) => t.id)).toEqual([1, 2]);
    expect(toasts[0]!.text).toBe('4 apps went to Error: api, shop, wiki +1');
    expect(toasts[0]!.count).toBe(4);
    // Its time on screen starts again with the last one heard.
    expect(toasts[0]!.at).toBe(1004);
  });

  it('keeps the first wording for a single app, and counts an app heard twice once', () => {
    expect(run([[alert('api'), 0]])[0]!.text).toBe('api is in Error: x');
    const twice = run([
      [alert('api'), 0],
      [alert('api'), 5],
    ]);
    expect(twice).toHaveLength(1);
    expect(twice[0]!.text).toBe('1 app went to Error: api');
  });

  it('starts a new toast when the last of its group was heard longer ago than the window', () => {
    const toasts = run([
      [alert('api'), 0],
      [alert('shop'), GROUP_WINDOW_MS],
      [alert('wiki'), 2 * GROUP_WINDOW_MS + 1],
    ]);
    expect(toasts.map((t) => t.names)).toEqual([['api', 'shop'], ['wiki']]);
  });

  it('groups a repeated message by its text, and does not mix different texts or kinds', () => {
    const toasts = run([
      [{ kind: 'error', text: 'cannot refresh' }, 0],
      [{ kind: 'error', text: 'cannot refresh' }, 1],
      [{ kind: 'info', text: 'cannot refresh' }, 2],
      [{ kind: 'error', text: 'other' }, 3],
    ]);
    expect(toasts.map((t) => t.text)).toEqual(['cannot refresh (×2)', 'cannot refresh', 'other']);
  });

  it('words a group in French', async () => {
    await i18n.changeLanguage('fr');
    const toasts = run([
      [alert('api'), 0],
      [alert('shop'), 1],
    ]);
    expect(toasts[0]!.text).toBe('2 applications sont passées en erreur : api, shop');
  });
});

describe('toast cap and expiry', () => {
  it('shows the newest few and counts the rest', () => {
    const toasts = run(
      Array.from({ length: 7 }, (_, i) => [{ kind: 'info', text: `t${i}` }, i] as [ToastInput, number]),
    );
    const { shown, more } = shownToasts(toasts);
    expect(shown.map((t) => t.text)).toEqual(['t4', 't5', 't6']);
    expect(shown).toHaveLength(TOAST_CAP);
    expect(more).toBe(4);
    expect(shownToasts(toasts.slice(0, 2))).toEqual({ shown: toasts.slice(0, 2), more: 0 });
  });

  it('lets a toast go when its timer ends, not when an older timer of an updated toast does', () => {
    const toasts = run([
      [alert('api'), 0],
      [alert('shop'), 10],
    ]);
    // The timer started at 0 is stale: the toast was updated at 10.
    expect(expireToast(toasts, 1, 0)).toBeNull();
    expect(expireToast(toasts, 1, 10)).toEqual([]);
  });

  it('names a few and counts the others', () => {
    expect(someNames([])).toBe('');
    expect(someNames(['a', 'b', 'c'])).toBe('a, b, c');
    expect(someNames(['a', 'b', 'c', 'd', 'e'])).toBe('a, b, c +2');
  });
});
