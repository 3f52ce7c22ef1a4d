import { describe, expect, it } from 'vitest';
import {
  EMPTY_SELECTION,
  extendFocus,
  extendTo,
  keepOnly,
  pickedIn,
  type Selection,
  selectAll,
  toggle,
} from './selection.ts';

const ORDER = ['a', 'b', 'c', 'd', 'e', 'f'];
const ids = (s: Selection) => pickedIn(s, ORDER);

describe('picking apps for a bulk action', () => {
  it('toggles one app, which becomes the anchor', () => {
    const one = toggle(EMPTY_SELECTION, 'b');
    expect(ids(one)).toEqual(['b']);
    expect(one.anchor).toBe('b');
    expect(ids(toggle(one, 'b'))).toEqual([]);
  });

  it('Shift extends from the anchor, down or up, and a second Shift+click moves the range end', () => {
    const anchored = toggle(EMPTY_SELECTION, 'b');
    expect(ids(extendTo(anchored, ORDER, 'e'))).toEqual(['b', 'c', 'd', 'e']);
    const up = extendTo(toggle(EMPTY_SELECTION, 'e'), ORDER, 'c');
    expect(ids(up)).toEqual(['c', 'd', 'e']);
    // The anchor stays: a range is added from it again.
    expect(extendTo(up, ORDER, 'a').anchor).toBe('e');
    expect(ids(extendTo(up, ORDER, 'a'))).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('Shift from an anchor just unpicked unpicks the range', () => {
    let s = selectAll(EMPTY_SELECTION, ORDER);
    s = toggle(s, 'b');
    expect(ids(extendTo(s, ORDER, 'd'))).toEqual(['a', 'e', 'f']);
  });

  it('Shift without an anchor shown is a plain toggle', () => {
    const gone: Selection = { ids: new Set(['z']), anchor: 'z' };
    expect(ids(extendTo(gone, ORDER, 'c'))).toEqual(['c']);
    expect(extendTo(EMPTY_SELECTION, ORDER, 'c').anchor).toBe('c');
  });

  it('Shift+arrows pick the focused row and the next, then the range from where it started', () => {
    let s = extendFocus(EMPTY_SELECTION, ORDER, 'b', 'c');
    expect(ids(s)).toEqual(['b', 'c']);
    s = extendFocus(s, ORDER, 'c', 'd');
    expect(ids(s)).toEqual(['b', 'c', 'd']);
    expect(s.anchor).toBe('b');
  });

  it('Ctrl/Cmd+A picks what is shown, and again picks none', () => {
    const shown = ['b', 'd'];
    const all = selectAll(toggle(EMPTY_SELECTION, 'f'), shown);
    expect(ids(all)).toEqual(['b', 'd']);
    expect(ids(selectAll(all, shown))).toEqual([]);
    expect(ids(selectAll(EMPTY_SELECTION, []))).toEqual([]);
  });

  it('forgets released apps, and keeps the same value when none left', () => {
    const s = extendTo(toggle(EMPTY_SELECTION, 'a'), ORDER, 'c');
    expect(keepOnly(s, () => true)).toBe(s);
    const kept = keepOnly(s, (id) => id !== 'a');
    expect(ids(kept)).toEqual(['b', 'c']);
    expect(kept.anchor).toBeNull();
  });
});
