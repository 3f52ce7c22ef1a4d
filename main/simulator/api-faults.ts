/** API faults the tests plant in the simulator: error statuses, delays, dropped connections. */

/** An API fault, applied to the next `count` matching calls (Infinity for an outage). */
export type Fault = (
  | { kind: 'status'; status: number; retryAfterSec?: number; message?: string }
  | { kind: 'delay'; ms: number }
  /** The connection is dropped before the call is carried out. */
  | { kind: 'drop' }
  /** The call is carried out, then the connection is dropped: its answer is lost. */
  | { kind: 'drop-after' }
) & {
  count: number;
  /** Only calls whose endpoint ("GET /v2/organisations/:XXX/...") contains this. */
  match?: string;
  /** Only calls whose path names this id (an app, or an owner: its list and its apps). */
  id?: string;
  /** How many calls it hit (set by the simulator). */
  hits?: number;
};

/** The first fault that matches a call, counted down (and removed once spent). */
export function takeFault(faults: Fault[], endpoint: string, path: string): Fault | undefined {
  const index = faults.findIndex(
    (f) => f.count > 0 && (!f.match || endpoint.includes(f.match)) && (!f.id || path.includes(`/${f.id}`)),
  );
  if (index < 0) return undefined;
  const fault = faults[index]!;
  fault.count--;
  fault.hits = (fault.hits ?? 0) + 1;
  if (fault.count <= 0) faults.splice(index, 1);
  return fault;
}

/** The message of a planted error status. */
export function httpText(status: number): string {
  if (status === 429) return 'Too many requests';
  if (status >= 500) return 'The service is temporarily unavailable';
  return 'Request failed';
}
