/// <reference lib="dom" />
import { addDays, isLocalDate, isoWeekday, today } from '../dates.ts';
import { formatCount, formatDate, formatWeekday } from '../format.ts';
import { html } from '../html.ts';
import { PeriodForm, usePeriod } from '../period.ts';
import { Pending, useQuery } from '../use-query.ts';

/**
 * After-sales: the SAVs opened over a period by category and type, how many stand in each status, and
 * the occupancy of the SAV planning over the next 30 days as a calendar heat map (capacity, places
 * taken, holidays and closed days).
 */

type CountByKey = { key: string; count: number };
type Slot = { time: string; capacity: number; taken: number };
type Day = { date: string; open: boolean; closedBecause: string | null; slots: Slot[] };
type AfterSales = {
  dashboard: { totals: { savsOpened: number; openSavBacklog: number; savsByCategory: CountByKey[]; savsByType: CountByKey[] } };
  savStatusCounts: { status: string; count: number }[];
};
type Planning = { planningOccupancy: { holidays: { date: string; label: string | null }[]; plannings: { capacityPerSlot: number; days: Day[] }[] } };

const afterSalesQuery = `query AfterSales($from: LocalDate!, $to: LocalDate!) {
  dashboard(from: $from, to: $to, granularity: MONTH) { totals { savsOpened openSavBacklog savsByCategory { key count } savsByType { key count } } }
  savStatusCounts { status count }
}`;
const planningQuery = `query Planning($from: LocalDate!, $to: LocalDate!) {
  planningOccupancy(from: $from, to: $to, planningTypes: [sav]) {
    holidays { date label }
    plannings { capacityPerSlot days { date open closedBecause slots { time capacity taken } } }
  }
}`;

const statusLabels: Record<string, string> = { in_progress: 'En cours', resolved: 'Résolus', closed: 'Clos', cancelled: 'Annulés' };

const Counts = ({ title, counts, empty }: { title: string; counts: CountByKey[]; empty: string }) =>
  html`<section class="counts">
    <h3>${title}</h3>
    ${
      counts.length === 0
        ? html`<p class="empty">${empty}</p>`
        : html`<table>
            <thead>
              <tr>
                <th scope="col">${title}</th>
                <th scope="col">SAV</th>
              </tr>
            </thead>
            <tbody>
              ${counts.map(
                (count) =>
                  html`<tr data-key=${count.key}>
                    <td>${count.key}</td>
                    <td>${formatCount(count.count)}</td>
                  </tr>`,
              )}
            </tbody>
          </table>`
    }
  </section>`;

/** Five steps of occupancy, each readable in black text on its background. */
const levelOf = (taken: number, capacity: number): number => (capacity === 0 ? 0 : Math.min(4, Math.ceil((taken / capacity) * 4)));

const HeatMap = ({ from }: { from: string }) => {
  const to = addDays(from, 29);
  const answer = useQuery<Planning>(planningQuery, { from, to });
  if (answer.state !== 'answered') return html`<${Pending} answer=${answer} />`;
  const { holidays, plannings } = answer.data.planningOccupancy;
  const planning = plannings[0];
  if (planning === undefined) return html`<p class="empty">Aucun planning SAV n’est configuré.</p>`;
  const holidayLabels = new Map(holidays.map((holiday) => [holiday.date, holiday.label ?? 'jour férié']));
  const blanks = isoWeekday(from) - 1;
  return html`<p class="hint">Du ${formatDate(from)} au ${formatDate(to)} ; ${formatCount(planning.capacityPerSlot)} places par créneau.</p>
    <ol class="heat-map" aria-label="Occupation du planning SAV, jour par jour">
      ${Array.from({ length: blanks }, () => html`<li class="blank" aria-hidden="true"></li>`)}
      ${planning.days.map((day) => {
        const capacity = day.slots.reduce((sum, slot) => sum + slot.capacity, 0);
        const taken = day.slots.reduce((sum, slot) => sum + slot.taken, 0);
        const closed = !day.open;
        const why = closed ? (day.closedBecause === 'holiday' ? (holidayLabels.get(day.date) ?? 'jour férié') : 'fermé') : null;
        return html`<li
          class=${closed ? 'day closed' : `day level-${levelOf(taken, capacity)}`}
          data-date=${day.date}
          data-taken=${taken}
          data-capacity=${capacity}
        >
          <span class="date">${formatWeekday(day.date)}</span>
          <span class="occupancy">${closed ? why : `${formatCount(taken)} / ${formatCount(capacity)}`}</span>
        </li>`;
      })}
    </ol>
    <p class="legend">Places prises / capacité du jour ; plus la case est foncée, plus le jour est plein.</p>`;
};

export const AfterSalesPage = () => {
  const [period, setPeriod, asked] = usePeriod();
  const answer = useQuery<AfterSales>(afterSalesQuery, { from: period.from, to: period.to }, asked);
  const planningStart = new URLSearchParams(location.search).get('planning');
  return html`<${PeriodForm} period=${period} onChange=${setPeriod} withGranularity=${false} />
    <${Pending} answer=${answer} />
    ${
      answer.state === 'answered' &&
      html`<section aria-labelledby="sav-periode">
          <h2 id="sav-periode">SAV de la période</h2>
          <dl class="figures">
            <div class="figure" data-figure="savsOpened">
              <dt>SAV ouverts</dt>
              <dd class="value">${formatCount(answer.data.dashboard.totals.savsOpened)}</dd>
            </div>
            <div class="figure" data-figure="openSavBacklog">
              <dt>En cours à la fin de la période</dt>
              <dd class="value">${formatCount(answer.data.dashboard.totals.openSavBacklog)}</dd>
            </div>
          </dl>
          <div class="columns">
            <${Counts} title="Catégorie" counts=${answer.data.dashboard.totals.savsByCategory} empty="Aucun SAV sur cette période." />
            <${Counts} title="Type" counts=${answer.data.dashboard.totals.savsByType} empty="Aucun SAV sur cette période." />
          </div>
        </section>
        <section aria-labelledby="sav-statuts">
          <h2 id="sav-statuts">Tous les SAV, par statut aujourd’hui</h2>
          <dl class="figures">
            ${answer.data.savStatusCounts.map(
              (count) =>
                html`<div class="figure" data-figure=${`status-${count.status}`}>
                  <dt>${statusLabels[count.status] ?? count.status}</dt>
                  <dd class="value">${formatCount(count.count)}</dd>
                </div>`,
            )}
          </dl>
        </section>`
    }
    <section aria-labelledby="planning">
      <h2 id="planning">Planning SAV des 30 prochains jours</h2>
      <${HeatMap} from=${isLocalDate(planningStart) ? planningStart : today()} />
    </section>`;
};
