/// <reference lib="dom" />
/** Numbers, amounts, dates and delays as France writes them. */

const integer = new Intl.NumberFormat('fr-FR', { maximumFractionDigits: 0 });
const decimal = new Intl.NumberFormat('fr-FR', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
const euros = new Intl.NumberFormat('fr-FR', { style: 'currency', currency: 'EUR' });
const day = new Intl.DateTimeFormat('fr-FR', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
const shortDay = new Intl.DateTimeFormat('fr-FR', { day: 'numeric', month: 'short', timeZone: 'UTC' });
const weekday = new Intl.DateTimeFormat('fr-FR', { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' });
const instant = new Intl.DateTimeFormat('fr-FR', { dateStyle: 'short', timeStyle: 'medium', timeZone: 'Europe/Paris' });

export const formatCount = (value: number): string => integer.format(value);

export const formatMoney = (value: number | null, currency = 'EUR'): string =>
  value === null ? '—' : currency === 'EUR' ? euros.format(value) : new Intl.NumberFormat('fr-FR', { style: 'currency', currency }).format(value);

/** A local date (YYYY-MM-DD), e.g. "3 nov. 2026". */
export const formatDate = (date: string): string => day.format(new Date(`${date}T00:00:00Z`));
export const formatShortDate = (date: string): string => shortDay.format(new Date(`${date}T00:00:00Z`));
export const formatWeekday = (date: string): string => weekday.format(new Date(`${date}T00:00:00Z`));

/** An instant, in Paris time: "03/11/2026 14:05:09". */
export const formatInstant = (iso: string): string => instant.format(new Date(iso));

/** A delay in seconds, in hours with one decimal ("36,5 h"); "—" without samples. */
export const formatHours = (seconds: number | null): string => (seconds === null ? '—' : `${decimal.format(seconds / 3600)} h`);
