/**
 * The "waking up" page a browser gets at once when it asks for a sleeping app: it follows the start
 * live (state, elapsed time, the time this app usually takes, from its past wakes) over server-sent
 * events from the proxy itself, and reloads when the app is Up. Without JavaScript it reloads every
 * five seconds.
 *
 * In the visitor's language (English or French, from the browser's Accept-Language): the words from
 * the `waking` catalogue, the clock time of the start with Intl in that language and the visitor's
 * own time zone (in the browser). An Error's cause stays as the spec words it.
 */
import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { REAPER_STATES } from '../../shared/domain.ts';
import { formatDuration } from '../../shared/durations.ts';
import { escapeHtml } from '../../shared/html.ts';
import { acceptLanguageTags, type Language, pickLanguage } from '../../shared/i18n/languages.ts';
import { translator } from '../../shared/i18n/translator.ts';

export const STATUS_PATH = '/__clever-reaper/status';

/** The page's language for a request's Accept-Language header. */
export function wakingLanguage(acceptLanguage: string | undefined): Language {
  return pickLanguage(acceptLanguageTags(acceptLanguage));
}

/** A value for a script: JSON, with `<` escaped so no string can close the script element. */
function scriptValue(value: unknown): string {
  return JSON.stringify(value).replaceAll('<', '\\u003c');
}

export function wakingPage(options: {
  appName: string;
  expectedMs: number | null;
  nonce: string;
  /** English when not given. */
  language?: Language;
}): string {
  const language = options.language ?? 'en';
  const t = translator(language, 'waking');
  const expected =
    options.expectedMs === null
      ? ''
      : escapeHtml(t('expected', { duration: unbroken(formatDuration(options.expectedMs)) }));
  // The words the script writes as the start goes on; placeholders filled in there.
  const words = {
    elapsed: t('elapsed', { duration: '{{duration}}' }),
    askedAt: t('askedAt', { time: '{{time}}' }),
    failed: t('failed', { cause: '{{cause}}' }),
    states: Object.fromEntries(REAPER_STATES.map((s) => [s, t(`states.${s}`)])),
  };
  return `<!doctype html>
<html lang="${language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(t('title', { name: options.appName }))}</title>
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
  <h1><span class="spin" aria-hidden="true"></span>${escapeHtml(t('heading', { name: options.appName }))}</h1>
  <p>${escapeHtml(t('intro'))}</p>
  <div class="bar" role="progressbar" aria-label="${escapeHtml(t('progress'))}" aria-valuemin="0" aria-valuemax="100"><div id="bar"></div></div>
  <p><span class="state" id="state">${escapeHtml(t('states.WaitingForUp'))}</span> · <span id="elapsed">0 s</span><span id="expected">${expected ? ` · ${expected}` : ''}</span><span id="asked"></span></p>
  <p class="error" id="error" hidden></p>
</main>
<script nonce="${options.nonce}">
(() => {
  const expectedMs = ${options.expectedMs === null ? 'null' : Math.round(options.expectedMs)};
  const lang = ${scriptValue(language)};
  const words = ${scriptValue(words)};
  let startedAt = Date.now();
  const $ = (id) => document.getElementById(id);
  // The visitor's own variant of the language where it has one (en-GB writes 09:30, en-US 9:30 AM).
  const locale = (navigator.languages || []).find((tag) => tag.split('-')[0].toLowerCase() === lang) || lang;
  const num = new Intl.NumberFormat(locale);
  const clock = new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit' });
  const fill = (text, values) => Object.keys(values).reduce((out, key) => out.split('{{' + key + '}}').join(values[key]), text);
  // A duration never breaks across lines: no-break spaces inside it ("49 s", "1 min 30 s").
  const fmt = (ms) => { const s = Math.max(0, Math.round(ms / 1000)); return s < 60 ? num.format(s) + '\u00a0s' : num.format(Math.floor(s / 60)) + '\u00a0min\u00a0' + num.format(s % 60) + '\u00a0s'; };
  const tick = () => {
    const elapsed = Date.now() - startedAt;
    $('elapsed').textContent = fill(words.elapsed, { duration: fmt(elapsed) });
    const pct = expectedMs ? Math.min(95, 5 + 90 * elapsed / expectedMs) : Math.min(90, 5 + elapsed / 1500);
    $('bar').style.width = pct + '%';
    $('bar').parentElement.setAttribute('aria-valuenow', String(Math.round(pct)));
  };
  setInterval(tick, 500); tick();
  const events = new EventSource(${JSON.stringify(STATUS_PATH)});
  events.addEventListener('status', (e) => {
    const s = JSON.parse(e.data);
    if (s.startedAt) {
      startedAt = Date.now() - s.elapsedMs;
      $('asked').textContent = ' · ' + fill(words.askedAt, { time: clock.format(new Date(startedAt)) });
    }
    $('state').textContent = words.states[s.state] || s.label;
    if (s.state === 'Up') { $('bar').style.width = '100%'; events.close(); setTimeout(() => location.reload(), 300); }
    if (s.state === 'Error') { events.close(); $('error').hidden = false; $('error').textContent = fill(words.failed, { cause: s.cause }); }
  });
  events.onerror = () => { setTimeout(() => location.reload(), 5000); events.close(); };
})();
</script>
</body>
</html>`;
}

/** A duration whose parts stay on one line: "1 min 30 s" with no-break spaces. */
function unbroken(text: string): string {
  return text.replaceAll(' ', '\u00a0');
}

/** The waking page as the wake proxy answers it: 503, Retry-After, its script and style by nonce. */
export function answerWakingPage(
  res: ServerResponse,
  appName: string,
  expectedMs: number | null,
  acceptLanguage: string | undefined,
): void {
  const nonce = randomBytes(16).toString('base64');
  const language = wakingLanguage(acceptLanguage);
  res.writeHead(503, {
    'content-type': 'text/html; charset=utf-8',
    'content-language': language,
    vary: 'accept-language',
    'retry-after': '5',
    'cache-control': 'no-store',
    'content-security-policy': `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; connect-src 'self'`,
    'x-content-type-options': 'nosniff',
  });
  res.end(wakingPage({ appName, expectedMs, nonce, language }));
}
