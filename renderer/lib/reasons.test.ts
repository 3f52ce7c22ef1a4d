/**
 * The engine's reasons in the dashboard's language: every reason the engine writes (the list
 * scripts/engine-reasons.test.ts takes from the engine and keeps in renderer/test/engine-reasons.json)
 * reads in English exactly as written, and in French with no English left but Clever Cloud's values,
 * error messages and the Error causes of the spec, which stay word for word.
 */

import { afterEach, describe, expect, it } from 'vitest';
import { causeKind } from '../../shared/causes.ts';
import { CAUSES } from '../../shared/domain.ts';
import { i18n } from '../i18n.ts';
import reasons from '../test/engine-reasons.json';
import { causeText } from './cause-text.ts';
import { fullTime, localTimestamps, setViewerTimeZone } from './format.ts';
import { reasonText } from './reasons.ts';

const T0 = Date.UTC(2026, 0, 5, 9, 0, 0);

/** English words of the engine's reasons; none may be left in French once raw values are taken out. */
const ENGLISH =
  /\b(the|says|started|stopped|restarted|redeployed|outside|deployment|request|traffic|grace|period|would|released|forgotten|accepted|failed|awake|kept|reset|with|group|range|begins|asked|cancelled|start|stop|last|no|app|put|under|rule|none|someone|deploying)\b/i;

/** Clever Cloud's values and ours that stay as written: states, ids, error messages, causes, names. */
function withoutRawValues(text: string): string {
  let out = text;
  for (const cause of [CAUSES.stopTimeout, CAUSES.startTimeout, CAUSES.startFailed, CAUSES.neverDeployed])
    out = out.replaceAll(cause, '');
  out = out.replace(/the last deployment of the app is '[^']*', it cannot be put to sleep safely/g, '');
  out = out.replace(/unexpected clever cloud state '[^']*'/g, '');
  return out
    .replace(/\b[A-Z][A-Z_]+\b/g, '') // SHOULD_BE_UP, OK, FAIL, DELETE
    .replace(/\bdep(loyment)?[-_]\w+/g, '')
    .replace(/\(Clever Cloud answered 400[^)]*\)/g, '')
    .replace(
      /: (Clever Cloud answered 503: Service Unavailable|connect ECONNREFUSED|the request timed out)$/,
      '',
    )
    .replace(/'review apps'|rule_123|\bfront\b/g, '');
}

afterEach(async () => {
  await i18n.changeLanguage('en');
  setViewerTimeZone(null);
});

describe('reasons in the dashboard language', () => {
  it('English shows every reason as the engine wrote it, its ISO timestamps in the viewer’s zone', () => {
    for (const reason of reasons) {
      expect(reasonText(reason)).toBe(localTimestamps(reason));
      expect(reasonText(reason)).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:/);
    }
    setViewerTimeZone('Europe/Paris');
    expect(reasonText(`kept awake until ${new Date(T0).toISOString()}`)).toBe(
      `kept awake until ${fullTime(T0, 'Europe/Paris')}`,
    );
  });

  it('what a group waits for, and its members in Error, in both languages with times in the viewer’s zone', async () => {
    setViewerTimeZone('Europe/Paris');
    const iso = new Date(T0).toISOString();
    const grace = `waiting for group member api (grace period ends at ${iso})`;
    const until = `waiting for group member worker (kept awake, until ${iso})`;
    const starting = 'waiting for group member front (waking up)';
    const inError = `db is in Error (${CAUSES.startTimeout}): it does not hold the group awake`;
    const paris = fullTime(T0, 'Europe/Paris');
    expect(reasonText(grace)).toBe(`waiting for group member api (grace period ends at ${paris})`);
    expect(reasonText(until)).toBe(`waiting for group member worker (kept awake, until ${paris})`);
    expect(reasonText(starting)).toBe(starting);
    expect(reasonText(inError)).toBe(inError);
    await i18n.changeLanguage('fr');
    const parisFr = fullTime(T0, 'Europe/Paris');
    expect(reasonText(grace)).toBe(`attend api, du même groupe (délai de grâce jusqu’à ${parisFr})`);
    expect(reasonText(until)).toBe(`attend worker, du même groupe (maintenue éveillée, jusqu’à ${parisFr})`);
    expect(reasonText(starting)).toBe('attend front, du même groupe (se réveille)');
    expect(reasonText(inError)).toBe(
      `db est en erreur (${causeText(CAUSES.startTimeout).text}) : elle ne retient pas le groupe éveillé`,
    );
    expect(reasonText('db is in Error (unknown cause): it does not hold the group awake')).toBe(
      'db est en erreur (cause inconnue) : elle ne retient pas le groupe éveillé',
    );
  });

  it('French translates every reason, keeping Clever Cloud’s values and the causes word for word', async () => {
    await i18n.changeLanguage('fr');
    for (const reason of reasons) {
      const french = reasonText(reason);
      const isCause = causeKind(reason).kind !== 'unknown';
      if (isCause) {
        // Issue 26: on screen, a cause reads in French (the stored English stays in the API).
        expect(french, reason).toBe(causeText(reason).text);
        expect(french, reason).not.toBe(reason);
        continue;
      }
      expect(french, reason).not.toBe(reason);
      expect(withoutRawValues(french), `${reason} -> ${french}`).not.toMatch(ENGLISH);
    }
  });

  it('French writes durations, sources and times its own way, raw values as they are', async () => {
    await i18n.changeLanguage('fr');
    setViewerTimeZone('UTC');
    expect(reasonText('no traffic for 1 h 30 min (grace period 2 min), last deployment OK')).toBe(
      'aucun trafic depuis 1 h 30 min (délai de grâce 2 min), dernier déploiement OK',
    );
    expect(reasonText('no traffic for 2 d 3 h (grace period 45 s), no deployment')).toBe(
      'aucun trafic depuis 2 j 3 h (délai de grâce 45 s), aucun déploiement',
    );
    expect(reasonText('asked for by access-log')).toBe('demandée depuis : journal d’accès');
    expect(reasonText('dry-run: a request (wake-proxy) would have woken the app')).toBe(
      'simulation : une requête (proxy de réveil) aurait réveillé l’application',
    );
    expect(reasonText(`kept awake until ${new Date(T0).toISOString()}`)).toMatch(
      /^maintenue éveillée jusqu’à .*09:00:00/,
    );
    expect(reasonText('stop failed: Clever Cloud answered 503: Service Unavailable')).toBe(
      'l’arrêt a échoué : Clever Cloud answered 503: Service Unavailable',
    );
    const unsafe = CAUSES.unsafeLastDeployment('FAIL');
    expect(
      reasonText(
        `dry-run: would not stop it: ${unsafe}; no traffic for 2 h (grace period 1 h), last deployment FAIL`,
      ),
    ).toBe(
      `simulation : elle ne serait pas arrêtée : ${unsafe} ; aucun trafic depuis 2 h (délai de grâce 1 h), dernier déploiement FAIL`,
    );
    expect(reasonText(CAUSES.unexpectedState('MODERATED'))).toBe('état Clever Cloud inattendu « MODERATED »');
  });

  it('a reason of no known form is shown as written, in both languages', async () => {
    const odd = 'something an older version wrote';
    expect(reasonText(odd)).toBe(odd);
    await i18n.changeLanguage('fr');
    expect(reasonText(odd)).toBe(odd);
    expect(reasonText('no traffic for a while (grace period 1 h), no deployment')).toContain('aucun trafic');
  });
});
