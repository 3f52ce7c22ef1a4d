/**
 * What a person sees, measured in the page: the contrast of every button's words in each state (WCAG
 * 2 contrast from Chromium's computed colours, the states forced through the DevTools protocol so no
 * click or hover has side effects), the words cut by their box, and ISO timestamps left on screen.
 */
import type { CDPSession, Page } from '@playwright/test';

export type ButtonState = 'rest' | 'hover' | 'focus' | 'active' | 'disabled';
export const BUTTON_STATES: readonly ButtonState[] = ['rest', 'hover', 'focus', 'active', 'disabled'];

/** One button's words too faint in one state. */
export interface LowContrast {
  state: ButtonState;
  text: string;
  ratio: number;
  needed: number;
  color: string;
  background: string;
}

const FORCED: Record<ButtonState, string[]> = {
  rest: [],
  hover: ['hover'],
  focus: ['focus', 'focus-visible'],
  active: ['hover', 'active'],
  disabled: [],
};

/**
 * In the page: the contrast of the words of every shown button (`window.__contrastOf()`), each text
 * against the background it sits on (the layers of its ancestors composed, opacity included).
 */
const MEASURE = `(() => {
  const parse = (c) => {
    let m = c.match(/^rgba?\\(([\\d.]+),?\\s*([\\d.]+),?\\s*([\\d.]+)(?:\\s*[,/]\\s*([\\d.]+%?))?\\)$/);
    if (m) return [+m[1] / 255, +m[2] / 255, +m[3] / 255, alpha(m[4])];
    m = c.match(/^color\\(srgb ([\\d.e-]+) ([\\d.e-]+) ([\\d.e-]+)(?: \\/ ([\\d.]+%?))?\\)$/);
    if (m) return [+m[1], +m[2], +m[3], alpha(m[4])];
    if (c === 'transparent') return [0, 0, 0, 0];
    throw new Error('a colour the contrast check cannot read: ' + c);
  };
  const alpha = (a) => (a === undefined ? 1 : a.endsWith('%') ? parseFloat(a) / 100 : +a);
  const over = (top, bottom) => {
    const a = top[3] + bottom[3] * (1 - top[3]);
    if (a === 0) return [0, 0, 0, 0];
    return [0, 1, 2].map((i) => (top[i] * top[3] + bottom[i] * bottom[3] * (1 - top[3])) / a).concat(a);
  };
  const background = (el) => {
    const layers = [];
    for (let e = el; e; e = e.parentElement) {
      const c = parse(getComputedStyle(e).backgroundColor);
      if (c[3] > 0) layers.push(c);
      if (c[3] >= 1) break;
    }
    const canvas = matchMedia('(prefers-color-scheme: dark)').matches ? [0, 0, 0, 1] : [1, 1, 1, 1];
    return layers.reduceRight((under, layer) => over(layer, under), canvas);
  };
  const opacity = (el) => {
    let o = 1;
    for (let e = el; e; e = e.parentElement) o *= +getComputedStyle(e).opacity;
    return o;
  };
  const lum = (c) => {
    const [r, g, b] = c.slice(0, 3).map((v) => (v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const css = (c) => 'rgb(' + c.slice(0, 3).map((v) => Math.round(v * 255)).join(' ') + ')';
  const hidden = (el) => el.closest('.visually-hidden, [aria-hidden="true"]') !== null;
  const shown = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
  window.__contrastOf = () => {
    const out = [];
    for (const button of document.querySelectorAll('[data-contrast-probe]')) {
      if (!shown(button)) continue;
      const texts = [button, ...button.querySelectorAll('*')].filter(
        (el) => !hidden(el) && shown(el) && [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim()),
      );
      for (const el of texts) {
        const style = getComputedStyle(el);
        const bg = background(el);
        const fg = parse(style.color);
        const text = over([fg[0], fg[1], fg[2], fg[3] * opacity(el)], bg);
        const [hi, lo] = [lum(text), lum(bg)].sort((a, b) => b - a);
        const size = parseFloat(style.fontSize);
        const large = size >= 24 || (size >= 18.66 && +style.fontWeight >= 700);
        out.push({
          text: [...el.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent.trim()).join(' '),
          ratio: Math.round(((hi + 0.05) / (lo + 0.05)) * 100) / 100,
          needed: large ? 3 : 4.5,
          color: css(text),
          background: css(bg),
          disabled: button.disabled,
        });
      }
    }
    return out;
  };
})()`;

/**
 * One button of each kind (its classes, its parent's and its row's: a table repeats the same button
 * on every row), marked for the measure; returns how many.
 */
const MARK = `(() => {
  for (const b of document.querySelectorAll('[data-contrast-probe]')) b.removeAttribute('data-contrast-probe');
  const kinds = new Set();
  for (const b of document.querySelectorAll('button')) {
    if (b.getClientRects().length === 0) continue;
    const kind = [b.className, b.disabled, b.parentElement?.className, b.closest('tr, section, [role=dialog]')?.className].join('|');
    if (kinds.has(kind)) continue;
    kinds.add(kind);
    b.setAttribute('data-contrast-probe', '');
  }
  return kinds.size;
})()`;

/** How far up a forced state goes: a real hover also hovers the row the button is in. */
const ANCESTORS = 4;

/** The node ids of the marked buttons and of their nearest ancestors. */
async function probesAndAncestors(cdp: CDPSession): Promise<number[]> {
  const { root } = await cdp.send('DOM.getDocument', { depth: -1, pierce: false });
  const parents = new Map<number, number>();
  // Element parents only (the document node takes no pseudo-class).
  const walk = (node: typeof root, parent: number | null) => {
    if (parent !== null && node.nodeType === 1) parents.set(node.nodeId, parent);
    for (const child of node.children ?? []) walk(child, node.nodeType === 1 ? node.nodeId : null);
  };
  walk(root, null);
  const { nodeIds } = await cdp.send('DOM.querySelectorAll', {
    nodeId: root.nodeId,
    selector: '[data-contrast-probe]',
  });
  const ids = new Set<number>();
  for (const id of nodeIds) {
    let n: number | undefined = id;
    for (let up = 0; n !== undefined && up <= ANCESTORS; up++, n = parents.get(n)) ids.add(n);
  }
  return [...ids];
}

type Measured = Omit<LowContrast, 'state'> & { disabled: boolean };

/** The DevTools protocol's answer about a node the page has re-rendered away. */
const nodeGone = (error: unknown) => /Could not find node/.test(String(error));

/**
 * The words of the page's buttons whose contrast is under WCAG AA (4.5:1, 3:1 for large text) in any
 * state: at rest, hovered, focused (focus-visible), pressed, and disabled (each enabled button
 * disabled for the measure, then given back its state).
 */
export async function lowContrastButtons(page: Page): Promise<LowContrast[]> {
  await page.evaluate(MEASURE);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('DOM.enable');
  await cdp.send('CSS.enable');
  const found: LowContrast[] = [];
  const measure = async (state: ButtonState): Promise<Measured[]> => {
    // The page re-renders as the engine goes on: a button marked a moment ago may be a new node by
    // the time its state is forced. Mark and probe again for each state, and once more when a node
    // went away in between.
    for (let attempt = 1; ; attempt++) {
      await page.evaluate(MARK);
      const forced = FORCED[state].length ? await probesAndAncestors(cdp) : [];
      const force = (classes: string[]) =>
        Promise.all(
          forced.map((nodeId) => cdp.send('CSS.forcePseudoState', { nodeId, forcedPseudoClasses: classes })),
        );
      try {
        await force(FORCED[state]);
      } catch (error) {
        if (attempt < 5 && nodeGone(error)) continue;
        throw error;
      }
      try {
        return state === 'disabled'
          ? await page.evaluate<Measured[]>(`(() => {
              const enabled = [...document.querySelectorAll('[data-contrast-probe]')].filter((b) => !b.disabled);
              for (const b of enabled) b.disabled = true;
              try { return window.__contrastOf(); } finally { for (const b of enabled) b.disabled = false; }
            })()`)
          : (await page.evaluate<Measured[]>('window.__contrastOf()')).filter((m) => !m.disabled);
      } finally {
        // A node gone since it was forced has lost its forced state with it.
        await force([]).catch((error: unknown) => {
          if (!nodeGone(error)) throw error;
        });
      }
    }
  };
  try {
    for (const state of BUTTON_STATES) {
      for (const { disabled: _, ...m } of await measure(state))
        if (m.ratio < m.needed) found.push({ state, ...m });
    }
  } finally {
    await cdp.detach();
  }
  // One line per distinct failure (a table repeats the same button on every row).
  const seen = new Set<string>();
  return found.filter((f) => {
    const key = `${f.state}|${f.text}|${f.color}|${f.background}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** A text cut by its box: what it says, how wide it wants to be and how wide it is shown. */
export interface CutText {
  text: string;
  /** The element, as a short CSS path (tag and classes of it and its two nearest ancestors). */
  where: string;
  wants: number;
  shown: number;
}

/**
 * In the page: every shown element whose own words are cut. Either its box hides what overflows it
 * (overflow hidden or clip, or text-overflow ellipsis) and its words are wider than it
 * (`scrollWidth > clientWidth`), or its words reach past the edge of an ancestor that clips them (a
 * table cell, an SVG chart's edge), measured on the words themselves (a Range over each text node).
 * Form fields count too (a value or a date wider than its field). One pixel of rounding is allowed.
 */
const CUT = `(() => {
  const clips = (s) => /hidden|clip/.test(s.overflowX);
  const scrolls = (s) => /auto|scroll/.test(s.overflowX);
  // Words for screen readers only (a box of one pixel, clipped) are not shown.
  const shown = (el) => {
    const r = el.getBoundingClientRect();
    return r.width > 1 && r.height > 1 && getComputedStyle(el).visibility !== 'hidden' &&
      !el.closest('.visually-hidden, [aria-hidden="true"], [hidden]');
  };
  const label = (el) => el.tagName.toLowerCase() + [...el.classList].map((c) => '.' + c).join('');
  const path = (el) => [el.parentElement?.parentElement, el.parentElement, el].filter(Boolean).map(label).join(' > ');
  const edges = (el) => {
    const r = el.getBoundingClientRect();
    if (el instanceof SVGElement) return [r.left, r.right];
    return [r.left + el.clientLeft, r.left + el.clientLeft + el.clientWidth];
  };
  const out = [];
  for (const el of document.body.querySelectorAll('*')) {
    const field = el.matches('input:not([type=checkbox]):not([type=radio]):not([type=hidden]):not([type=range]), textarea');
    const nodes = [...el.childNodes].filter((n) => n.nodeType === 3 && n.textContent.trim());
    const words = field ? el.value : nodes.map((n) => n.textContent).join('').trim();
    if (!words || !shown(el)) continue;
    const style = getComputedStyle(el);
    const text = (el.innerText || el.textContent || words).trim().replace(/\\s+/g, ' ').slice(0, 80);
    if ((field || style.textOverflow === 'ellipsis' || clips(style)) && !(el instanceof SVGElement) &&
        el.scrollWidth > el.clientWidth + 1) {
      out.push({ text, where: path(el), wants: el.scrollWidth, shown: el.clientWidth });
      continue;
    }
    if (field) continue;
    let left = Infinity, right = -Infinity;
    for (const n of nodes) {
      const range = document.createRange();
      range.selectNodeContents(n);
      for (const r of range.getClientRects()) {
        if (r.width === 0) continue;
        left = Math.min(left, r.left);
        right = Math.max(right, r.right);
      }
    }
    if (left === Infinity) continue;
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
      const s = getComputedStyle(a);
      if (scrolls(s)) break;
      if (!clips(s) && !(a instanceof SVGSVGElement)) continue;
      const [from, to] = edges(a);
      if (right > to + 1 || left < from - 1) {
        out.push({ text, where: path(el), wants: Math.round(right - left), shown: Math.round(to - from) });
        break;
      }
    }
  }
  return out;
})()`;

/** The words of the page cut by their box (see CUT), one line each, the same element kind once. */
export async function cutTexts(page: Page): Promise<string[]> {
  const found = await page.evaluate<CutText[]>(CUT);
  const seen = new Set<string>();
  const out: string[] = [];
  for (const f of found) {
    const line = `"${f.text}" (${f.where}: ${f.wants} px in ${f.shown} px)`;
    if (seen.has(line)) continue;
    seen.add(line);
    out.push(line);
  }
  return out;
}

/** An ISO-8601 timestamp as a program writes it (`2026-12-01T18:31:49.054Z`, `2026-12-01 18:31`). */
const ISO_TIMESTAMP = /\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?\b/g;

/** The ISO timestamps in the words the page shows (its rendered text and its tooltips). */
export async function isoTimestampsShown(page: Page): Promise<string[]> {
  const texts = await page.evaluate<string[]>(`(() => [
    document.body.innerText,
    ...[...document.querySelectorAll('[title]')].map((el) => el.getAttribute('title')),
  ])()`);
  return [...new Set(texts.flatMap((t) => t.match(ISO_TIMESTAMP) ?? []))];
}

/**
 * The buttons (one of each kind, as the contrast check marks them) that look the same disabled as
 * enabled at rest: the fill, the edge's style, the underline and the opacity are compared (the text's
 * colour alone is not a sign a person notices). Each enabled button is disabled for the measure, then
 * given back its state.
 */
export async function disabledLookAlike(page: Page): Promise<string[]> {
  await page.evaluate(MARK);
  return page.evaluate<string[]>(`(() => {
    const look = (b) => {
      const s = getComputedStyle(b);
      return [s.backgroundColor, s.borderTopStyle, s.textDecorationLine, s.opacity].join('|');
    };
    const out = [];
    for (const b of document.querySelectorAll('[data-contrast-probe]')) {
      if (b.disabled) continue;
      const enabled = look(b);
      b.disabled = true;
      try {
        if (look(b) === enabled) out.push((b.textContent || b.getAttribute('aria-label') || b.className).trim().slice(0, 60));
      } finally {
        b.disabled = false;
      }
    }
    return out;
  })()`);
}

/**
 * The words inside `selector` that take more than one line (a label meant to fit on one: the
 * header's), each with where it is, and those that reach past the window's right edge.
 */
export async function wrappedTexts(page: Page, selector: string): Promise<string[]> {
  return page.evaluate<string[]>(`(() => {
    const out = [];
    const root = document.querySelector(${JSON.stringify(selector)});
    if (!root) return ['nothing matches ${selector.replace(/'/g, '')}'];
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const words = n.textContent.trim();
      const el = n.parentElement;
      if (!words || !el || el.closest('.visually-hidden, [aria-hidden="true"], [hidden]')) continue;
      const range = document.createRange();
      range.selectNodeContents(n);
      const rects = [...range.getClientRects()].filter((r) => r.width > 0);
      if (rects.length === 0) continue;
      const lines = new Set(rects.map((r) => Math.round(r.top)));
      const where = el.tagName.toLowerCase() + [...el.classList].map((c) => '.' + c).join('');
      if (lines.size > 1) out.push('"' + words + '" takes ' + lines.size + ' lines (' + where + ')');
      const right = Math.max(...rects.map((r) => r.right));
      if (right > window.innerWidth + 1) out.push('"' + words + '" goes past the window (' + where + ')');
    }
    return out;
  })()`);
}
