/**
 * Money and hours as the Savings view and the first-day proposal show them, in the dashboard's
 * language (Intl with currentLanguage(), read at each call so a language switch applies at once).
 */
import { currentLanguage, i18n } from '../i18n.ts';

/** Euros: two decimals, four under 0.10 € so a small saving does not read as 0,00 €. */
export function eur(value: number | null): string {
  if (value === null) return '—';
  const small = Math.abs(value) > 0 && Math.abs(value) < 0.1;
  return new Intl.NumberFormat(currentLanguage(), {
    style: 'currency',
    currency: 'EUR',
    maximumFractionDigits: small ? 4 : 2,
  }).format(value);
}

/** Hours asleep: "0 h", "25 min", "3.5 h", "512 h". */
export function hours(value: number): string {
  if (value === 0) return i18n.t('savings:units.hours', { value: 0 });
  if (value < 1) return i18n.t('savings:units.minutes', { value: Math.round(value * 60) });
  const number = new Intl.NumberFormat(currentLanguage(), {
    maximumFractionDigits: value < 10 ? 1 : 0,
    minimumFractionDigits: value < 10 ? 1 : 0,
  }).format(value);
  return i18n.t('savings:units.hours', { value: number });
}

/** A day of the chart, "5 Jan" / "5 janv.". */
export function shortDay(day: string): string {
  return new Date(`${day}T12:00:00Z`).toLocaleDateString(currentLanguage(), {
    day: 'numeric',
    month: 'short',
    timeZone: 'UTC',
  });
}

/** A plain number in the dashboard's language ("0.0097" / "0,0097"). */
export function plainNumber(value: number): string {
  return new Intl.NumberFormat(currentLanguage(), { maximumFractionDigits: 6 }).format(value);
}
