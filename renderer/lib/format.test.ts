/**
 * The dashboard writes times, durations, numbers and money as the current language does, and a
 * switch of language changes the next call (the formatters are kept per language). Every time here
 * is written in a zone given to Intl (UTC, Europe/Paris, Asia/Tokyo), never the machine's.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DAY, HOUR, MINUTE, SECOND } from '../../shared/durations.ts';
import { i18n } from '../i18n.ts';
import {
  ago,
  clockTime,
  clockTimeIn,
  dateTimeIn,
  dayLabel,
  formatDuration,
  formatMoney,
  formatNumber,
  fullTime,
  intlLocale,
  KIND_LABELS,
  kindLabel,
  localTimestamps,
  ownerLabel,
  SOURCE_LABELS,
  setViewerTimeZone,
  shortDuration,
  stateLabel,
  until,
} from './format.ts';

/** Monday 5 January 2026, 14:32:10 UTC. */
const T = Date.UTC(2026, 0, 5, 14, 32, 10);
/** Intl writes some spaces as no-break spaces (French thousands, before €): compared as spaces. */
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');

beforeEach(() => setViewerTimeZone('UTC'));
afterEach(async () => {
  setViewerTimeZone(null);
  await i18n.changeLanguage('en');
});

describe('format.ts in English', () => {
  it('times: a clock time near now, a weekday further away, a full time; in the zone given', () => {
    expect(clockTime(T, T)).toBe('14:32');
    expect(clockTime(T, T + 2 * DAY)).toBe('Mon 14:32');
    expect(clockTime(T, T, 'Europe/Paris')).toBe('15:32');
    expect(fullTime(T)).toBe('Mon, Jan 5, 14:32:10');
    expect(fullTime(T, 'Asia/Tokyo')).toBe('Mon, Jan 5, 23:32:10');
    expect(dayLabel(T)).toBe('5 Mon');
  });

  it('durations and relative times', () => {
    expect(shortDuration(12 * SECOND)).toBe('12 s');
    expect(shortDuration(4 * MINUTE + 30 * SECOND)).toBe('4 min');
    expect(shortDuration(3 * HOUR + 10 * MINUTE)).toBe('3 h 10 min');
    expect(shortDuration(2 * DAY + 4 * HOUR)).toBe('2 d 4 h');
    expect(formatDuration(40 * SECOND)).toBe('40 s');
    expect(formatDuration(90 * MINUTE)).toBe('1 h 30 min');
    expect(formatDuration(-2 * DAY)).toBe('-2 d');
    expect(until(T + 3 * MINUTE, T)).toBe('in 3 min');
    expect(until(T, T)).toBe('now');
    expect(ago(T - 3 * MINUTE, T)).toBe('3 min ago');
    expect(ago(T - SECOND, T)).toBe('just now');
  });

  it('numbers, euros, and the labels of states, sources and history kinds', () => {
    expect(formatNumber(1234.5)).toBe('1,234.5');
    expect(formatMoney(12.5)).toBe('€12.50');
    expect(formatMoney(0.0097)).toBe('€0.0097');
    expect(formatMoney(null)).toBe('—');
    expect(stateLabel('Down')).toBe('Asleep');
    expect(SOURCE_LABELS['access-log']).toBe('access log');
    expect(KIND_LABELS['would-sleep']).toBe('would sleep (dry-run)');
    expect(kindLabel('transition')).toBe('');
    expect(ownerLabel({ ownerId: 'user_1', ownerName: 'Personal space' })).toBe('Personal space');
    expect(ownerLabel({ ownerId: 'orga_1', ownerName: 'Acme Staging' })).toBe('Acme Staging');
    expect(ownerLabel({ ownerId: 'orga_2', ownerName: '' })).toBe('orga_2');
  });

  it('takes the browser’s regional tag of the language: en-GB writes the day first', () => {
    const languages = Object.getOwnPropertyDescriptor(Navigator.prototype, 'languages')!;
    Object.defineProperty(navigator, 'languages', { configurable: true, get: () => ['fr-FR', 'en-GB'] });
    try {
      expect(intlLocale()).toBe('en-GB');
      expect(fullTime(T)).toBe('Mon 5 Jan, 14:32:10');
      expect(formatMoney(12.5)).toBe('€12.50');
    } finally {
      Reflect.deleteProperty(navigator, 'languages');
      expect(Object.getOwnPropertyDescriptor(Navigator.prototype, 'languages')).toEqual(languages);
    }
    expect(intlLocale()).toBe('en-US');
  });

  it('a range time says its zone only where the zone writes it otherwise than the viewer', () => {
    setViewerTimeZone('Europe/Paris');
    expect(clockTimeIn(T, T, 'Europe/Paris')).toBe('15:32');
    // Same offset in winter: nothing to add.
    expect(clockTimeIn(T, T, 'Europe/Berlin')).toBe('15:32');
    expect(clockTimeIn(T, T, 'America/New_York')).toBe('15:32 (09:32 America/New_York)');
    expect(clockTimeIn(T, T, 'Asia/Tokyo')).toBe('15:32 (23:32 Asia/Tokyo)');
    // Another day there: the day is said.
    expect(clockTimeIn(Date.UTC(2026, 0, 5, 20), T, 'Asia/Tokyo')).toBe('21:00 (Tue 05:00 Asia/Tokyo)');
    expect(clockTimeIn(T, T, null)).toBe('15:32');
    expect(dateTimeIn(T, 'America/New_York')).toBe('Mon, Jan 5, 15:32 (09:32 America/New_York)');
  });

  it('says the ISO timestamps of an engine text in the viewer’s zone, the rest as written', () => {
    const iso = new Date(T).toISOString();
    const text = `waiting for group member api (grace period ends at ${iso}), then ${iso.slice(0, 16)}Z`;
    expect(localTimestamps(text, 'Europe/Paris')).toBe(
      `waiting for group member api (grace period ends at ${fullTime(T, 'Europe/Paris')}), then ${fullTime(T - 10_000, 'Europe/Paris')}`,
    );
    expect(localTimestamps(text, 'Europe/Paris')).not.toMatch(/\d{4}-\d{2}-\d{2}T/);
    expect(localTimestamps('no time here')).toBe('no time here');
  });
});

describe('format.ts in French', () => {
  beforeEach(async () => {
    await i18n.changeLanguage('fr');
  });

  it('counts in the catalogues as Intl writes them: 1 000 applications, as Savings writes 1 935 h', () => {
    const thousand = new Intl.NumberFormat('fr').format(1000);
    expect(thousand).toMatch(/^1\s000$/u);
    expect(i18n.t('common:appCount', { count: 1000 })).toBe(`${thousand} applications`);
    expect(i18n.t('apps:toolbar.countOf', { shown: 1000, count: 1200 })).toBe(
      `${thousand} sur ${new Intl.NumberFormat('fr').format(1200)} applications`,
    );
  });

  it('times, in the zone given', () => {
    expect(intlLocale()).toBe('fr');
    expect(clockTime(T, T)).toBe('14:32');
    expect(clockTime(T, T + 2 * DAY)).toBe('lun. 14:32');
    expect(fullTime(T)).toBe('lun. 5 janv., 14:32:10');
    expect(fullTime(T, 'Europe/Paris')).toBe('lun. 5 janv., 15:32:10');
    expect(dayLabel(T)).toBe('lun. 5');
  });

  it('durations and relative times', () => {
    expect(shortDuration(3 * HOUR + 10 * MINUTE)).toBe('3 h 10 min');
    expect(shortDuration(2 * DAY + 4 * HOUR)).toBe('2 j 4 h');
    expect(formatDuration(DAY + HOUR + 5 * SECOND)).toBe('1 j 1 h');
    expect(until(T + 3 * MINUTE, T)).toBe('dans 3 min');
    expect(until(T, T)).toBe('maintenant');
    expect(ago(T - 3 * MINUTE, T)).toBe('il y a 3 min');
    expect(ago(T, T)).toBe('à l’instant');
  });

  it('numbers, euros, and the labels', () => {
    expect(plain(formatNumber(1234.5))).toBe('1 234,5');
    expect(plain(formatMoney(12.5))).toBe('12,50 €');
    expect(plain(formatMoney(0.0097))).toBe('0,0097 €');
    expect(stateLabel('Down')).toBe('En veille');
    expect(SOURCE_LABELS['access-log']).toBe('journal d’accès');
    expect(KIND_LABELS['stop-asked']).toBe('arrêt envoyé');
    expect(ownerLabel({ ownerId: 'user_1', ownerName: 'Personal space' })).toBe('Espace personnel');
    expect(ownerLabel({ ownerId: 'orga_1', ownerName: 'Acme Staging' })).toBe('Acme Staging');
  });

  it('a range time with its zone', () => {
    setViewerTimeZone('Europe/Paris');
    expect(clockTimeIn(T, T, 'America/New_York')).toBe('15:32 (09:32 America/New_York)');
    expect(dateTimeIn(T, 'Asia/Tokyo')).toBe('lun. 5 janv., 15:32 (23:32 Asia/Tokyo)');
  });

  it('back in English, the next call is English again (formatters kept per language)', async () => {
    expect(fullTime(T)).toBe('lun. 5 janv., 14:32:10');
    await i18n.changeLanguage('en');
    expect(fullTime(T)).toBe('Mon, Jan 5, 14:32:10');
    expect(until(T + 3 * MINUTE, T)).toBe('in 3 min');
  });
});
