/**
 * A range's weekdays in the viewer's language: shown in French as French abbreviations, typed in
 * French (short or full, accents and dots or not) or English, stored as the spec writes them.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { parseDays, WEEKDAY_NAMES } from '../../shared/schedule.ts';
import { i18n } from '../i18n.ts';
import { weekdaysShown, weekdaysTyped } from './weekdays.ts';

afterEach(async () => {
  await i18n.changeLanguage('en');
});

describe('weekdays in the viewer’s language', () => {
  it('English shows and keeps the spec’s names, full names read as short ones', () => {
    expect(weekdaysShown('Mon-Fri')).toBe('Mon-Fri');
    expect(weekdaysTyped('Mon-Fri')).toBe('Mon-Fri');
    expect(weekdaysTyped('monday-friday, Sun')).toBe('Mon-Fri, Sun');
  });

  it('French shows lun-ven and reads back what a French speaker types', async () => {
    await i18n.changeLanguage('fr');
    expect(weekdaysShown('Mon-Fri')).toBe('lun-ven');
    expect(weekdaysShown('Sat,Sun')).toBe('sam,dim');
    expect(weekdaysShown('Fri-Mon, Wed')).toBe('ven-lun, mer');
    expect(weekdaysTyped('lun-ven')).toBe('Mon-Fri');
    expect(weekdaysTyped('Lundi-Vendredi')).toBe('Mon-Fri');
    expect(weekdaysTyped('mer., sam')).toBe('Wed, Sat');
    expect(weekdaysTyped('Mon-Fri')).toBe('Mon-Fri');
    // What is no weekday stays as typed, so that the field's problem names it.
    expect(weekdaysTyped('lun-xyz')).toBe('Mon-xyz');
    expect(weekdaysTyped('lu')).toBe('lu');
  });

  it('every day and every pair of days goes round: shown, typed back, the same days for the engine', async () => {
    for (const language of ['en', 'fr']) {
      await i18n.changeLanguage(language);
      for (const from of WEEKDAY_NAMES) {
        for (const to of WEEKDAY_NAMES) {
          for (const spec of [`${from}-${to}`, `${from},${to}`, from]) {
            const back = weekdaysTyped(weekdaysShown(spec));
            expect(back, `${language}: ${spec}`).toBe(spec);
            expect(parseDays(back)).toEqual(parseDays(spec));
          }
        }
      }
    }
  });
});
