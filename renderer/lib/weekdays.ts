/**
 * The weekdays of a must-be-up range in the viewer's language. A route stores them as the spec
 * writes them (`Mon-Fri`, `Sat,Sun`: English three-letter names, shared/schedule.ts); the dashboard
 * shows them in the language of the screen (`lun-ven` in French) and reads back what is typed in
 * either that language or English. What is not a weekday is kept as typed, so the field's problem
 * names it.
 */
import { WEEKDAY_NAMES } from '../../shared/schedule.ts';
import { currentLanguage, i18n } from '../i18n.ts';

/** A run of letters (and a trailing dot, as "lun." abbreviates): a weekday name, or not. */
const WORD = /\p{L}+\.?/gu;

/** Lower case, no accent, no trailing dot: "Mer." and "mer" read alike. */
function plain(word: string): string {
  return word.normalize('NFD').replace(/\p{M}/gu, '').replace(/\.$/, '').toLowerCase();
}

/** The short names of the current language, Sunday first (the catalogue's `common:weekdays`). */
function localNames(): readonly string[] {
  return WEEKDAY_NAMES.map((n) => i18n.t(`common:weekdays.${n}`));
}

/** `Mon-Fri` as the screen says it: `lun-ven` in French, unchanged in English. */
export function weekdaysShown(days: string): string {
  if (currentLanguage() === 'en') return days;
  const names = localNames();
  return days.replace(WORD, (word) => {
    const i = WEEKDAY_NAMES.findIndex((n) => n.toLowerCase() === plain(word));
    return i < 0 ? word : names[i]!;
  });
}

/**
 * What was typed, as a route stores it: each weekday name of the screen's language (short or full:
 * "lun", "lundi") or of English becomes the spec's `Mon`; the rest is kept as typed.
 */
export function weekdaysTyped(text: string): string {
  const short = localNames().map(plain);
  const full = WEEKDAY_NAMES.map((n) => plain(i18n.t(`common:weekdaysFull.${n}`)));
  return text.replace(WORD, (word) => {
    const p = plain(word);
    let i = WEEKDAY_NAMES.findIndex((n) => n.toLowerCase() === p);
    if (i < 0) i = short.indexOf(p);
    if (i < 0) i = full.indexOf(p);
    return i < 0 ? word : WEEKDAY_NAMES[i]!;
  });
}
