/**
 * The spacer row of a virtualised table: the height of the rows not in the DOM, above or below
 * those that are. Its height is set through the DOM, not a `style` attribute: the page the server
 * renders allows no inline style (its CSP blocks the attribute), and a hydrated page keeps the
 * server's attributes as they were. Nothing when the height is 0.
 */
import { useLayoutEffect, useRef } from 'react';

export function SpacerRow({ height, columns }: { height: number; columns: number }) {
  const cell = useRef<HTMLTableCellElement>(null);
  useLayoutEffect(() => {
    const style = cell.current?.style;
    if (!style) return;
    style.height = `${height}px`;
    style.padding = '0';
    style.border = '0';
  }, [height]);
  if (height <= 0) return null;
  return (
    // biome-ignore lint/a11y/noAriaHiddenOnFocusable: a spacer of the virtualised table, never focused
    <tr aria-hidden="true" className="spacer">
      <td ref={cell} colSpan={columns} />
    </tr>
  );
}
