/**
 * The "waking up" page a browser gets at once when it asks for a sleeping app: it follows the start
 * live (state, elapsed time, the time this app usually takes, from its past wakes) over server-sent
 * events from the proxy itself, and reloads when the app is Up. Without JavaScript it reloads every
 * five seconds.
 */
import { formatDuration } from '../../shared/durations.ts';
import { escapeHtml } from '../../shared/html.ts';

export const STATUS_PATH = '/__clever-reaper/status';

export function wakingPage(options: { appName: string; expectedMs: number | null; nonce: string }): string {
  const name = escapeHtml(options.appName);
  const expected =
    options.expectedMs === null
      ? ''
      : `usually ready in about ${escapeHtml(formatDuration(options.expectedMs))}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Waking up ${name}…</title>
<noscript><meta http-equiv="refresh" content="5"></noscript>
<style nonce="${options.nonce}">
  :root { color-scheme: light dark; --fg: #1d2330; --muted: #5b6475; --bg: #f6f7fb; --card: #fff; --accent: #3563e9; --bad: #c62828; }
  @media (prefers-color-scheme: dark) { :root { --fg: #e8ebf2; --muted: #9aa3b5; --bg: #12151c; --card: #1b2030; --accent: #7b9cff; --bad: #ff8a80; } }
  * { box-sizing: border-box; }
  body { margin: 0; min-height: 100vh; display: grid; place-items: center; background: var(--bg); color: var(--fg);
         font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
  main { background: var(--card); padding: 2rem 2.5rem; border-radius: 12px; max-width: 32rem; width: calc(100% - 2rem);
         box-shadow: 0 4px 24px rgb(0 0 0 / 0.08); }
  h1 { font-size: 1.35rem; margin: 0 0 .25rem; }
  p { margin: .25rem 0; color: var(--muted); }
  .bar { height: 6px; border-radius: 3px; background: color-mix(in srgb, var(--accent) 15%, transparent); margin: 1.25rem 0 .75rem; overflow: hidden; }
  .bar > div { height: 100%; width: 5%; background: var(--accent); transition: width .8s ease; }
  .state { font-weight: 600; color: var(--fg); }
  .error { color: var(--bad); }
  .spin { display: inline-block; width: .9em; height: .9em; border: 2px solid var(--accent); border-right-color: transparent;
          border-radius: 50%; animation: spin .8s linear infinite; vertical-align: -2px; margin-right: .4em; }
  @keyframes spin { to { transform: rotate(360deg); } }
  @media (prefers-reduced-motion: reduce) { .spin { animation: none; } .bar > div { transition: none; } }
</style>
</head>
<body>
<main aria-live="polite">
  <h1><span class="spin" aria-hidden="true"></span>Waking up ${name}</h1>
  <p>It was asleep to save resources. This page reloads by itself when it is ready.</p>
  <div class="bar" role="progressbar" aria-label="Start progress" aria-valuemin="0" aria-valuemax="100"><div id="bar"></div></div>
  <p><span class="state" id="state">Starting</span> · <span id="elapsed">0 s</span><span id="expected">${expected ? ` · ${expected}` : ''}</span></p>
  <p class="error" id="error" hidden></p>
</main>
<script nonce="${options.nonce}">
(() => {
  const expectedMs = ${options.expectedMs === null ? 'null' : Math.round(options.expectedMs)};
  let startedAt = Date.now();
  const $ = (id) => document.getElementById(id);
  const fmt = (ms) => { const s = Math.max(0, Math.round(ms / 1000)); return s < 60 ? s + ' s' : Math.floor(s / 60) + ' min ' + (s % 60) + ' s'; };
  const tick = () => {
    const elapsed = Date.now() - startedAt;
    $('elapsed').textContent = fmt(elapsed) + ' elapsed';
    const pct = expectedMs ? Math.min(95, 5 + 90 * elapsed / expectedMs) : Math.min(90, 5 + elapsed / 1500);
    $('bar').style.width = pct + '%';
    $('bar').parentElement.setAttribute('aria-valuenow', String(Math.round(pct)));
  };
  setInterval(tick, 500); tick();
  const events = new EventSource(${JSON.stringify(STATUS_PATH)});
  events.addEventListener('status', (e) => {
    const s = JSON.parse(e.data);
    if (s.startedAt) startedAt = Date.now() - s.elapsedMs;
    $('state').textContent = s.label;
    if (s.state === 'Up') { $('bar').style.width = '100%'; events.close(); setTimeout(() => location.reload(), 300); }
    if (s.state === 'Error') { events.close(); $('error').hidden = false; $('error').textContent = 'The start did not work: ' + s.cause + '. Reload to reach the app directly.'; }
  });
  events.onerror = () => { setTimeout(() => location.reload(), 5000); events.close(); };
})();
</script>
</body>
</html>`;
}
