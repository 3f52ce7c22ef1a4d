/**
 * What can wake the app, in its details: the wake proxy's host names, access logs, must-be-up ranges
 * and manual wakes, with a warning when access logs are the only automatic one (that a request to a
 * stopped app appears in its access logs is unconfirmed), and the access-log wakes seen so far.
 */
import type { WakeSources } from '../../shared/api.ts';

function proxyLine(proxy: WakeSources['proxy']): string {
  if (proxy.hosts.length === 0) return 'no host name (give its route one to wake it through the proxy)';
  const hosts = proxy.hosts.join(', ');
  return proxy.listening
    ? `${hosts}, through the wake proxy`
    : `${hosts}, but the wake proxy is not listening`;
}

export function WakeSourcesSection({ sources }: { sources: WakeSources }) {
  const wakes = sources.accessLogWakes;
  return (
    <section aria-labelledby="wake-sources-heading">
      <h3 id="wake-sources-heading">Wake sources</h3>
      {sources.warning && (
        <p className="callout warn" role="note" aria-label="Wake source warning">
          {sources.warning}
        </p>
      )}
      <dl className="facts">
        <dt>Wake proxy</dt>
        <dd>{proxyLine(sources.proxy)}</dd>
        <dt>Access logs</dt>
        <dd>
          {sources.accessLogs ? 'followed (unconfirmed for a stopped app)' : 'not followed'}
          {sources.accessLogs && (
            <span className="muted">
              {' '}
              ·{' '}
              {wakes === 0
                ? 'no wake by access log seen yet'
                : `${wakes} wake${wakes === 1 ? '' : 's'} by access log seen`}
            </span>
          )}
        </dd>
        <dt>Must-be-up ranges</dt>
        <dd>{sources.ranges ? 'each range start wakes it' : 'none'}</dd>
        <dt>Manual</dt>
        <dd>Wake here or in the tray, the admin API, a clever-reaper:// link</dd>
      </dl>
    </section>
  );
}
