/// <reference lib="dom" />
import { Chart } from '../chart.ts';
import { addDays } from '../dates.ts';
import { formatCount, formatHours, formatShortDate } from '../format.ts';
import { html } from '../html.ts';
import { PeriodForm, usePeriod, type Period } from '../period.ts';
import { useEffect, useState } from 'preact/hooks';
import { query, SignedOut } from '../graphql.ts';
import { Pending, useQuery, type Answer } from '../use-query.ts';

/** Each drop-shipper over a period: lines received, handled and still open, and its delays (median, 90th percentile) over time. */

type Delay = { samples: number; median: number | null; p90: number | null };
type Performance = {
  supplier: string;
  received: number;
  acknowledged: number;
  shipped: number;
  cancelled: number;
  openBacklog: number;
  ackDelay: Delay;
  shipDelay: Delay;
};

const maxBuckets = 60;

/** The buckets of the period (days, ISO weeks or calendar months), clipped to it, as the dashboard cuts them. */
const bucketsOf = (period: Period): { from: string; to: string }[] => {
  const buckets: { from: string; to: string }[] = [];
  let start = period.from;
  while (start <= period.to && buckets.length < maxBuckets) {
    let end = start;
    if (period.granularity === 'WEEK') while (new Date(`${end}T00:00:00Z`).getUTCDay() !== 0 && end < period.to) end = addDays(end, 1);
    if (period.granularity === 'MONTH') while (addDays(end, 1).slice(0, 7) === start.slice(0, 7) && end < period.to) end = addDays(end, 1);
    buckets.push({ from: start, to: end });
    start = addDays(end, 1);
  }
  return buckets;
};

const delayFields = 'samples median p90';
const periodQuery = `query Suppliers($from: LocalDate!, $to: LocalDate!) {
  supplierPerformance(from: $from, to: $to) {
    supplier received acknowledged shipped cancelled openBacklog ackDelay { ${delayFields} } shipDelay { ${delayFields} }
  }
}`;

type BucketFigures = { supplier: string; shipDelay: { median: number | null } }[];

/** The API takes at most 10 root fields an operation: the buckets are asked 10 at a time, all at once. */
const perOperation = 10;
const bucketsQuery = (buckets: { from: string; to: string }[], offset: number) =>
  `query SupplierDelays {\n  ${buckets
    .map((bucket, index) => `b${offset + index}: supplierPerformance(from: "${bucket.from}", to: "${bucket.to}") { supplier shipDelay { median } }`)
    .join('\n  ')}\n}`;

const askBuckets = async (buckets: { from: string; to: string }[]): Promise<Record<string, BucketFigures>> => {
  const chunks: Promise<Record<string, BucketFigures>>[] = [];
  for (let offset = 0; offset < buckets.length; offset += perOperation) {
    chunks.push(query<Record<string, BucketFigures>>(bucketsQuery(buckets.slice(offset, offset + perOperation), offset)));
  }
  return Object.assign({}, ...(await Promise.all(chunks)));
};

/** The delays bucket by bucket, for the chart. */
const useBuckets = (buckets: { from: string; to: string }[], asked: number): Answer<Record<string, BucketFigures>> => {
  const [answer, setAnswer] = useState<Answer<Record<string, BucketFigures>>>({ state: 'loading' });
  const key = JSON.stringify(buckets);
  useEffect(() => {
    let current = true;
    setAnswer({ state: 'loading' });
    askBuckets(buckets).then(
      (data) => current && setAnswer({ state: 'answered', data }),
      (error: unknown) => {
        if (current && !(error instanceof SignedOut)) setAnswer({ state: 'failed', message: error instanceof Error ? error.message : String(error) });
      },
    );
    return () => {
      current = false;
    };
  }, [key, asked]);
  return answer;
};

const palette = ['#0b5cad', '#6b4e00', '#8a1c7c', '#1d6b2f'];

export const SuppliersPage = () => {
  const [period, setPeriod, asked] = usePeriod();
  const buckets = bucketsOf(period);
  const answer = useQuery<{ supplierPerformance: Performance[] }>(periodQuery, { from: period.from, to: period.to }, asked);
  const overTime = useBuckets(buckets, asked);
  return html`<${PeriodForm} period=${period} onChange=${setPeriod} />
    <${Pending} answer=${answer} />
    ${
      answer.state === 'answered' &&
      (answer.data.supplierPerformance.length === 0
        ? html`<p class="empty">Aucun fournisseur sur cette période.</p>`
        : html`<table class="suppliers">
              <caption>
                Lignes et délais depuis la commande, par fournisseur
              </caption>
              <thead>
                <tr>
                  <th scope="col">Fournisseur</th>
                  <th scope="col">Reçues</th>
                  <th scope="col">Confirmées</th>
                  <th scope="col">Expédiées</th>
                  <th scope="col">Annulées</th>
                  <th scope="col">Ouvertes en fin de période</th>
                  <th scope="col">Confirmation : médiane</th>
                  <th scope="col">Confirmation : 90 %</th>
                  <th scope="col">Expédition : médiane</th>
                  <th scope="col">Expédition : 90 %</th>
                </tr>
              </thead>
              <tbody>
                ${answer.data.supplierPerformance.map(
                  (line) =>
                    html`<tr data-supplier=${line.supplier}>
                      <th scope="row">${line.supplier}</th>
                      <td>${formatCount(line.received)}</td>
                      <td>${formatCount(line.acknowledged)}</td>
                      <td>${formatCount(line.shipped)}</td>
                      <td>${formatCount(line.cancelled)}</td>
                      <td>${formatCount(line.openBacklog)}</td>
                      <td>${formatHours(line.ackDelay.median)}</td>
                      <td>${formatHours(line.ackDelay.p90)}</td>
                      <td>${formatHours(line.shipDelay.median)}</td>
                      <td>${formatHours(line.shipDelay.p90)}</td>
                    </tr>`,
                )}
              </tbody>
            </table>
            ${buckets.length >= maxBuckets && html`<p class="hint">Le graphique montre les ${maxBuckets} premières périodes : choisissez des semaines ou des mois.</p>`}
            <h2>Délai médian d’expédition au fil du temps</h2>
            <${Pending} answer=${overTime} />
            ${
              overTime.state === 'answered' &&
              html`<${Chart}
                label="Délai médian d’expédition depuis la commande, en heures, par fournisseur"
                labels=${buckets.map((bucket) => formatShortDate(bucket.from))}
                format=${(seconds: number) => formatHours(seconds)}
                series=${answer.data.supplierPerformance.map((line, index) => ({
                  label: line.supplier,
                  color: palette[index % palette.length]!,
                  values: buckets.map((_, bucket) => overTime.data[`b${bucket}`]?.find((other) => other.supplier === line.supplier)?.shipDelay.median ?? null),
                }))}
              />`
            }`)
    }`;
};
