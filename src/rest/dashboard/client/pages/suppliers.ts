/// <reference lib="dom" />
import { Chart } from '../chart.ts';
import { addDays } from '../dates.ts';
import { formatCount, formatHours, formatShortDate } from '../format.ts';
import { html } from '../html.ts';
import { PeriodForm, usePeriod, type Period } from '../period.ts';
import { useEffect, useState } from 'preact/hooks';
import { query, SignedOut } from '../graphql.ts';
import { Pending, useQuery, type Answer } from '../use-query.ts';

/** Each drop-shipper over a period: lines received, handled, refused and still open, and its delays (median, 90th percentile) over time; its lines open today and those waiting longer than a chosen number of days. */

type Delay = { samples: number; median: number | null; p90: number | null };
type Performance = {
  supplier: string;
  received: number;
  acknowledged: number;
  shipped: number;
  cancelled: number;
  refused: number;
  refusals: { reason: string; count: number }[];
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
    supplier received acknowledged shipped cancelled refused refusals { reason count } openBacklog ackDelay { ${delayFields} } shipDelay { ${delayFields} }
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

/** The reasons a supplier gives when it refuses a line, as staff read them. */
const refusalReasons: Record<string, string> = {
  out_of_stock: 'rupture de stock',
  discontinued: 'produit arrêté',
  cannot_deliver: 'livraison impossible',
  other: 'autre raison',
};

/** "2 (rupture de stock : 1, produit arrêté : 1)", or "0". */
const refusedText = (line: Performance): string => {
  const reasons = line.refusals
    .filter((refusal) => refusal.count > 0)
    .map((refusal) => `${refusalReasons[refusal.reason] ?? refusal.reason} : ${formatCount(refusal.count)}`);
  return reasons.length === 0 ? formatCount(line.refused) : `${formatCount(line.refused)} (${reasons.join(', ')})`;
};

const openLinesQuery = `query OpenLines($days: Int!) { supplierOpenLines(olderThanDays: $days) { supplier open openLongerThan } }`;
const defaultDays = 7;

/** The lines open today, and those open longer than a number of days the person chooses. */
const OpenLines = () => {
  const [days, setDays] = useState(defaultDays);
  const answer = useQuery<{ supplierOpenLines: { supplier: string; open: number; openLongerThan: number }[] }>(openLinesQuery, { days });
  const change = (event: Event) => {
    const value = Number((event.currentTarget as HTMLInputElement).value);
    if (Number.isInteger(value) && value >= 1 && value <= 365) setDays(value);
  };
  return html`<h2>Lignes ouvertes aujourd’hui</h2>
    <form class="open-lines" onSubmit=${(event: Event) => event.preventDefault()} aria-label="Ancienneté des lignes ouvertes">
      <label>Ouvertes depuis plus de <input type="number" name="days" min="1" max="365" value=${days} onChange=${change} /> jours</label>
    </form>
    <${Pending} answer=${answer} />
    ${
      answer.state === 'answered' &&
      html`<table class="open-lines">
        <caption>
          Lignes ni expédiées, ni annulées, ni refusées, par fournisseur
        </caption>
        <thead>
          <tr>
            <th scope="col">Fournisseur</th>
            <th scope="col">Ouvertes</th>
            <th scope="col">Depuis plus de ${formatCount(days)} jours</th>
          </tr>
        </thead>
        <tbody>
          ${answer.data.supplierOpenLines.map(
            (line) =>
              html`<tr data-supplier=${line.supplier}>
                <th scope="row">${line.supplier}</th>
                <td>${formatCount(line.open)}</td>
                <td>${formatCount(line.openLongerThan)}</td>
              </tr>`,
          )}
        </tbody>
      </table>`
    }`;
};

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
                  <th scope="col">Refusées</th>
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
                      <td>${refusedText(line)}</td>
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
    }
    <${OpenLines} />`;
};
