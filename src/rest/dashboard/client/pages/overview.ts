/// <reference lib="dom" />
import { useState } from 'preact/hooks';
import { Chart } from '../chart.ts';
import { formatCount, formatDate, formatMoney, formatShortDate } from '../format.ts';
import { html } from '../html.ts';
import { PeriodForm, previousPeriod, usePeriod } from '../period.ts';
import { Pending, useQuery } from '../use-query.ts';

/** Orders, revenue, refunds, leads and SAVs over a period, bucket by bucket, beside the period before. */

type Totals = {
  orders: number;
  revenue: number;
  averageBasket: number | null;
  refundRequested: number;
  refundPaid: number;
  leads: number;
  savsOpened: number;
  openSavBacklog: number;
};
type Bucket = { start: string; end: string; orders: number; revenue: number };
type Overview = { current: { totals: Totals; buckets: Bucket[] }; previous: { totals: Totals; buckets: Bucket[] } };

const totalsFields = 'orders revenue averageBasket refundRequested refundPaid leads savsOpened openSavBacklog';
const overviewQuery = `query Overview($from: LocalDate!, $to: LocalDate!, $previousFrom: LocalDate!, $previousTo: LocalDate!, $granularity: DashboardGranularity!) {
  current: dashboard(from: $from, to: $to, granularity: $granularity) { totals { ${totalsFields} } buckets { start end orders revenue } }
  previous: dashboard(from: $previousFrom, to: $previousTo, granularity: $granularity) { totals { ${totalsFields} } buckets { start end orders revenue } }
}`;

const figures: { key: keyof Totals; label: string; format: (value: number | null) => string }[] = [
  { key: 'orders', label: 'Commandes', format: (value) => formatCount(value ?? 0) },
  { key: 'revenue', label: 'Chiffre d’affaires TTC', format: formatMoney },
  { key: 'averageBasket', label: 'Panier moyen', format: formatMoney },
  { key: 'refundRequested', label: 'Remboursements demandés', format: formatMoney },
  { key: 'refundPaid', label: 'Remboursements payés', format: formatMoney },
  { key: 'leads', label: 'Demandes de contact', format: (value) => formatCount(value ?? 0) },
  { key: 'savsOpened', label: 'SAV ouverts', format: (value) => formatCount(value ?? 0) },
  { key: 'openSavBacklog', label: 'SAV en cours (fin de période)', format: (value) => formatCount(value ?? 0) },
];

const measures = {
  revenue: { label: 'Chiffre d’affaires TTC', format: (value: number) => formatMoney(value) },
  orders: { label: 'Commandes', format: (value: number) => formatCount(value) },
} as const;

export const OverviewPage = () => {
  const [period, setPeriod, asked] = usePeriod();
  const [measure, setMeasure] = useState<keyof typeof measures>('revenue');
  const previous = previousPeriod(period);
  const answer = useQuery<Overview>(
    overviewQuery,
    {
      from: period.from,
      to: period.to,
      previousFrom: previous.from,
      previousTo: previous.to,
      granularity: period.granularity,
    },
    asked,
  );
  const { label, format } = measures[measure];
  return html`<${PeriodForm} period=${period} onChange=${setPeriod} />
    <p class="hint">Période précédente : du ${formatDate(previous.from)} au ${formatDate(previous.to)}.</p>
    <${Pending} answer=${answer} />
    ${
      answer.state === 'answered' &&
      html`<section aria-labelledby="totaux">
          <h2 id="totaux">Sur la période</h2>
          <dl class="figures">
            ${figures.map(
              (figure) =>
                html`<div class="figure" data-figure=${figure.key}>
                  <dt>${figure.label}</dt>
                  <dd class="value">${figure.format(answer.data.current.totals[figure.key])}</dd>
                  <dd class="previous">avant : <span>${figure.format(answer.data.previous.totals[figure.key])}</span></dd>
                </div>`,
            )}
          </dl>
        </section>
        <section aria-labelledby="evolution">
          <h2 id="evolution">Évolution</h2>
          <label
            >Mesure
            <select value=${measure} onChange=${(event: Event) => setMeasure((event.currentTarget as HTMLSelectElement).value as keyof typeof measures)}>
              <option value="revenue" selected=${measure === 'revenue'}>Chiffre d’affaires TTC</option>
              <option value="orders" selected=${measure === 'orders'}>Commandes</option>
            </select></label
          >
          ${
            answer.data.current.buckets.length === 0
              ? html`<p class="empty">Aucune donnée sur cette période.</p>`
              : html`<${Chart}
                    label=${`${label} par ${period.granularity === 'DAY' ? 'jour' : period.granularity === 'WEEK' ? 'semaine' : 'mois'}, période choisie et période précédente`}
                    labels=${answer.data.current.buckets.map((bucket) => formatShortDate(bucket.start))}
                    format=${format}
                    series=${[
                      { label: 'Période choisie', values: answer.data.current.buckets.map((bucket) => bucket[measure]), color: '#0b5cad' },
                      {
                        label: 'Période précédente',
                        values: answer.data.current.buckets.map((_, index) => answer.data.previous.buckets[index]?.[measure] ?? null),
                        color: '#6b4e00',
                        dash: [6, 4],
                      },
                    ]}
                  />
                  <table class="buckets">
                    <caption>
                      Chiffres par période
                    </caption>
                    <thead>
                      <tr>
                        <th scope="col">Du</th>
                        <th scope="col">Au</th>
                        <th scope="col">Commandes</th>
                        <th scope="col">Chiffre d’affaires TTC</th>
                        <th scope="col">Commandes avant</th>
                        <th scope="col">Chiffre d’affaires avant</th>
                      </tr>
                    </thead>
                    <tbody>
                      ${answer.data.current.buckets.map((bucket, index) => {
                        const before = answer.data.previous.buckets[index];
                        return html`<tr>
                          <td>${formatDate(bucket.start)}</td>
                          <td>${formatDate(bucket.end)}</td>
                          <td>${formatCount(bucket.orders)}</td>
                          <td>${formatMoney(bucket.revenue)}</td>
                          <td>${before ? formatCount(before.orders) : '—'}</td>
                          <td>${before ? formatMoney(before.revenue) : '—'}</td>
                        </tr>`;
                      })}
                    </tbody>
                  </table>`
          }
        </section>`
    }`;
};
