/// <reference lib="dom" />
import { useState } from 'preact/hooks';
import { addDays, daysBetween, isLocalDate, today } from './dates.ts';
import { html } from './html.ts';

/** The period a page shows, kept in the address (never the token) so that a page can be shared and reloaded. */
export type Granularity = 'DAY' | 'WEEK' | 'MONTH';
export type Period = { from: string; to: string; granularity: Granularity };

const granularities: Record<Granularity, string> = { DAY: 'Jour', WEEK: 'Semaine', MONTH: 'Mois' };

export const periodFromAddress = (defaultDays = 30): Period => {
  const params = new URLSearchParams(location.search);
  const to = params.get('au');
  const from = params.get('du');
  const granularity = params.get('par');
  const end = isLocalDate(to) ? to : today();
  return {
    to: end,
    from: isLocalDate(from) && from <= end ? from : addDays(end, -(defaultDays - 1)),
    granularity: granularity === 'WEEK' || granularity === 'MONTH' ? granularity : 'DAY',
  };
};

const toAddress = (period: Period): void => {
  const params = new URLSearchParams(location.search);
  params.set('du', period.from);
  params.set('au', period.to);
  params.set('par', period.granularity);
  history.replaceState(null, '', `${location.pathname}?${params}`);
};

/** The period just before, of the same length. */
export const previousPeriod = (period: Period): Period => {
  const to = addDays(period.from, -1);
  return { ...period, to, from: addDays(to, -(daysBetween(period.from, period.to) - 1)) };
};

/** The period, its setter, and how many times it was asked for (to pass to useQuery: the same period asked again is read again). */
export const usePeriod = (defaultDays = 30): [Period, (period: Period) => void, number] => {
  const [period, setPeriod] = useState(() => periodFromAddress(defaultDays));
  const [asked, setAsked] = useState(0);
  return [
    period,
    (next) => {
      toAddress(next);
      setPeriod(next);
      setAsked((count) => count + 1);
    },
    asked,
  ];
};

/** The period's controls: its first and last day, and (when the page has them) its buckets. */
export const PeriodForm = ({ period, onChange, withGranularity = true }: { period: Period; onChange: (period: Period) => void; withGranularity?: boolean }) => {
  const [error, setError] = useState<string | null>(null);
  const submit = (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const from = String(form.get('from'));
    const to = String(form.get('to'));
    const granularity = (form.get('granularity') ?? period.granularity) as Granularity;
    if (!isLocalDate(from) || !isLocalDate(to)) return setError('Indiquez une date de début et une date de fin.');
    if (to < from) return setError('La date de fin doit suivre la date de début.');
    if (daysBetween(from, to) > 366) return setError('Choisissez une période d’au plus 366 jours.');
    setError(null);
    onChange({ from, to, granularity });
  };
  // Default values, the form made again when the period changes: an answer's render leaves what is being typed alone.
  return html`<form class="period" key=${`${period.from} ${period.to} ${period.granularity}`} onSubmit=${submit} aria-label="Période">
    <label>Du <input type="date" name="from" defaultValue=${period.from} required /></label>
    <label>Au <input type="date" name="to" defaultValue=${period.to} required /></label>
    ${
      withGranularity &&
      html`<label
        >Par
        <select name="granularity">
          ${Object.entries(granularities).map(([value, label]) => html`<option value=${value} selected=${value === period.granularity}>${label}</option>`)}
        </select></label
      >`
    }
    <button type="submit">Afficher</button>
    ${error && html`<p class="error" role="alert">${error}</p>`}
  </form>`;
};
