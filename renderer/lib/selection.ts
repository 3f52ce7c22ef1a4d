/**
 * The apps picked for a bulk action: a set of ids and an anchor (the last one clicked without
 * Shift), as in a file manager. Shift extends from the anchor to the clicked app over the order the
 * table shows; Ctrl/Cmd+A picks what the filters show. Pure functions: the store keeps the value.
 */

export interface Selection {
  ids: ReadonlySet<string>;
  /** Where a Shift range starts: the last app toggled alone. */
  anchor: string | null;
}

export const EMPTY_SELECTION: Selection = { ids: new Set(), anchor: null };

/** Flip one app; it becomes the anchor. */
export function toggle(sel: Selection, id: string): Selection {
  const ids = new Set(sel.ids);
  if (ids.has(id)) ids.delete(id);
  else ids.add(id);
  return { ids, anchor: id };
}

/**
 * Shift+click (or Shift+Space): every app from the anchor to `id` in the order shown takes the
 * state the anchor has (picked, usually; unpicked when the anchor was just unpicked). Without an
 * anchor shown, this is a toggle. The anchor stays, so a second Shift+click changes the range.
 */
export function extendTo(sel: Selection, order: readonly string[], id: string): Selection {
  const from = sel.anchor === null ? -1 : order.indexOf(sel.anchor);
  const to = order.indexOf(id);
  if (from < 0 || to < 0) return toggle(sel, id);
  const pick = sel.ids.has(sel.anchor!);
  const ids = new Set(sel.ids);
  const [lo, hi] = from <= to ? [from, to] : [to, from];
  for (let i = lo; i <= hi; i++) {
    if (pick) ids.add(order[i]!);
    else ids.delete(order[i]!);
  }
  return { ids, anchor: sel.anchor };
}

/** Shift+arrow: the focused app joins the selection (the anchor stays where the range started). */
export function extendFocus(sel: Selection, order: readonly string[], from: string, to: string): Selection {
  const anchored = sel.anchor !== null && order.includes(sel.anchor) ? sel : { ids: sel.ids, anchor: from };
  const ids = new Set(anchored.ids);
  ids.add(from);
  return extendTo({ ids, anchor: anchored.anchor }, order, to);
}

/** Ctrl/Cmd+A: all the apps shown; again when all are picked: none. */
export function selectAll(sel: Selection, shown: readonly string[]): Selection {
  const all = shown.length > 0 && shown.every((id) => sel.ids.has(id));
  return { ids: all ? new Set() : new Set(shown), anchor: null };
}

/** Only the apps that still exist (a released app leaves the selection). */
export function keepOnly(sel: Selection, exists: (id: string) => boolean): Selection {
  if ([...sel.ids].every(exists)) return sel;
  const ids = new Set([...sel.ids].filter(exists));
  return { ids, anchor: sel.anchor !== null && exists(sel.anchor) ? sel.anchor : null };
}

/** The picked apps, in the order shown. */
export function pickedIn(sel: Selection, order: readonly string[]): string[] {
  return order.filter((id) => sel.ids.has(id));
}
