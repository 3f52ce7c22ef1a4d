/**
 * Bulk refusals on screen: the service writes them in English (kept as written in the API); in
 * French the dashboard says them in French, their Error cause translated too, and a refusal of no
 * known form is shown as written. The English catalogue reproduces the service's words exactly.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type BULK_REFUSALS, readRefusal } from '../../shared/bulk-refusals.ts';
import { CAUSES } from '../../shared/domain.ts';
import { i18n } from '../i18n.ts';
import { refusalText } from './cause-text.ts';

/** One message of each form, as the service writes it (main/service/calls/app-calls.ts, errors). */
const WRITTEN: Record<keyof typeof BULK_REFUSALS, string> = {
  inError: `the app is in Error (${CAUSES.startFailed}): reset it once the problem is fixed`,
  wentToError: "the app went to Error: unexpected clever cloud state 'MODERATED'",
  releasedWhileWaking: 'the app was released while waking up',
  notFound: 'app app_0f3e not found',
  noAccount: 'no Clever Cloud account is connected: connect one, or try the demo',
  cleverUnreachable: 'Clever Cloud could not be reached or refused the call: HTTP 503 (try later)',
};

afterEach(async () => {
  await i18n.changeLanguage('en');
});

describe('bulk refusals', () => {
  it('reads each form back, and the English catalogue says it word for word', () => {
    for (const [key, reason] of Object.entries(WRITTEN)) {
      expect(readRefusal(reason)?.key).toBe(key);
      expect(refusalText(reason)).toEqual({ text: reason, translated: false });
      const t = i18n.t as unknown as (k: string, v?: Record<string, string>) => string;
      expect(t(`apps:bulk.refusals.${key}`, readRefusal(reason)!.parts)).toBe(reason);
    }
  });

  it('says each in French, the Error cause in French too', async () => {
    await i18n.changeLanguage('fr');
    const texts = Object.values(WRITTEN).map((r) => refusalText(r));
    for (const { translated } of texts) expect(translated).toBe(true);
    expect(texts[0]!.text).toMatch(/^l’application est en erreur \(.+\) : réinitialisez-la/);
    expect(texts[0]!.text).not.toContain(CAUSES.startFailed);
    expect(texts[1]!.text).toContain('MODERATED');
    expect(texts[1]!.text).not.toContain('unexpected clever cloud state');
    expect(texts[3]!.text).toBe('application app_0f3e introuvable');
  });

  it('shows a refusal of no known form as written, and a bare cause in French', async () => {
    await i18n.changeLanguage('fr');
    expect(refusalText('something new went wrong')).toEqual({
      text: 'something new went wrong',
      translated: false,
    });
    expect(readRefusal('the app is in Error: reset it')).toBeNull();
    expect(refusalText(CAUSES.startFailed).translated).toBe(true);
  });
});
