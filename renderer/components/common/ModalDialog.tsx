/**
 * A modal dialog (the route and rule editors, the kill switch's confirmation): shown over the view wherever the row clicked was (not
 * in the page's flow, where a long table pushed it thousands of pixels away), with focus moved into
 * it, kept inside it (Tab and Shift+Tab cycle), Escape asking to close, and focus given back on close
 * to what opened it (or to `fallback` when that is gone, e.g. a panel of another view).
 *
 * role="dialog" with aria-modal rather than <dialog>.showModal(): the same behaviour in the test DOM
 * (jsdom has no showModal) as in the browsers; the rest of the page is made inert while it is open.
 */
import { type KeyboardEvent, type ReactNode, useEffect, useRef } from 'react';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

export function ModalDialog(props: {
  labelledBy: string;
  describedBy?: string;
  /** An alertdialog asks to confirm something the operator started (the kill switch). */
  role?: 'dialog' | 'alertdialog';
  /** The dialog's box (default: the editors' wide one) and the layer it is centred in. */
  className?: string;
  layerClassName?: string;
  /** Asked on Escape (the editor asks about unsaved changes, then closes or not). */
  onRequestClose: () => void;
  /** Where focus goes on close when what opened the dialog is no longer in the page. */
  fallback?: () => HTMLElement | null;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const layer = useRef<HTMLDivElement>(null);
  const request = useRef(props.onRequestClose);
  request.current = props.onRequestClose;
  const fallback = useRef(props.fallback);
  fallback.current = props.fallback;

  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const dialog = ref.current;
    // Everything else is inert while the dialog is open: no focus, no click, hidden from assistive tech.
    const inerted: Element[] = [];
    let node: Element | null = layer.current;
    while (node && node !== document.body) {
      for (const sibling of Array.from(node.parentElement?.children ?? [])) {
        if (sibling !== node && !sibling.hasAttribute('inert') && sibling.tagName !== 'SCRIPT') {
          sibling.setAttribute('inert', '');
          inerted.push(sibling);
        }
      }
      node = node.parentElement;
    }
    // The first field (not the Close button of the heading), else the first control, else the dialog.
    const first =
      dialog?.querySelector<HTMLElement>('[data-autofocus]') ??
      focusables(dialog?.querySelector('.grid') ?? null)[0] ??
      focusables(dialog)[0] ??
      dialog;
    first?.focus();
    return () => {
      for (const el of inerted) el.removeAttribute('inert');
      // What opened it, unless gone, out of reach, or the page's body (opened from the address: a
      // link opened in a new tab, a reload, Back).
      const usable = opener?.isConnected && opener !== document.body && !opener.closest('[inert]');
      const target = usable ? opener : fallback.current?.();
      target?.focus();
    };
  }, []);

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      request.current();
      return;
    }
    if (e.key !== 'Tab') return;
    const items = focusables(ref.current);
    if (items.length === 0) return;
    const first = items[0]!;
    const last = items.at(-1)!;
    if (e.shiftKey && (document.activeElement === first || document.activeElement === ref.current)) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && document.activeElement === last) {
      e.preventDefault();
      first.focus();
    }
  };

  const box = {
    ref,
    className: props.className ?? 'modal',
    'aria-modal': true,
    'aria-labelledby': props.labelledBy,
    'aria-describedby': props.describedBy,
    tabIndex: -1,
    onKeyDown,
  };
  return (
    <div ref={layer} className={props.layerClassName ?? 'modal-layer'}>
      {!props.layerClassName && <div className="modal-backdrop" aria-hidden="true" />}
      {props.role === 'alertdialog' ? (
        <div role="alertdialog" {...box}>
          {props.children}
        </div>
      ) : (
        <div role="dialog" {...box}>
          {props.children}
        </div>
      )}
    </div>
  );
}

function focusables(root: HTMLElement | null): HTMLElement[] {
  if (!root) return [];
  return Array.from(root.querySelectorAll<HTMLElement>(FOCUSABLE)).filter((el) => !el.closest('[inert]'));
}
