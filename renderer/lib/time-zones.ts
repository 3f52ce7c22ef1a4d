/**
 * The time zones a viewer can count the Savings in: the ones the browser knows
 * (Intl.supportedValuesOf('timeZone')), with UTC and the viewer's own zone (which may be an alias
 * the list does not hold, as Asia/Calcutta).
 */

/** The viewer's zone, as the browser resolves it. */
export function viewerTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

let offered: string[] | null = null;

/** Every zone offered, sorted, the viewer's and UTC included. */
export function offeredTimeZones(): readonly string[] {
  if (!offered) {
    const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
    offered = [...new Set([...known, 'UTC', viewerTimeZone()])].sort();
  }
  return offered;
}

/** Whether a zone (from a URL, a form) is one the view offers. */
export function isTimeZoneOffered(zone: string): boolean {
  return offeredTimeZones().includes(zone);
}
