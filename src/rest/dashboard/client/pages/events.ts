/// <reference lib="dom" />
import { useState } from 'preact/hooks';
import { formatCount, formatInstant } from '../format.ts';
import { html } from '../html.ts';
import { Pending, useQuery } from '../use-query.ts';

/**
 * The event log for auditors, page by page in log order, filtered by type, stream and the days it was
 * recorded on. The data is shown as the API gives it to the token: analysts see personal data
 * redacted, auditors as recorded.
 */

type LoggedEvent = {
  eventId: string;
  type: string;
  stream: string;
  position: string;
  recordedAt: string;
  actor: { kind: string; group: string | null; label: string | null };
  data: unknown;
};
type Feed = { events: { events: LoggedEvent[]; endCursor: string | null; hasNextPage: boolean } };
/** `from` and `to`: local dates (YYYY-MM-DD) of the person's browser, both included; '' for none. */
type Filters = { types: string[]; streamPrefix: string; from: string; to: string; after: string | null };

/** The instant a local day starts, in the browser's time zone (the retailer's staff are in France). */
const dayStart = (date: string, days = 0): string => {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return new Date(year, month - 1, day + days).toISOString();
};

const pageSize = 50;
const feedQuery = `query Feed($after: Position, $types: [String!], $streamPrefix: String, $from: DateTime, $to: DateTime, $first: Int!) {
  events(after: $after, types: $types, streamPrefix: $streamPrefix, from: $from, to: $to, first: $first) {
    events { eventId type stream position recordedAt actor { kind group label } data }
    endCursor hasNextPage
  }
}`;

export const EventsPage = () => {
  const [filters, setFilters] = useState<Filters>({ types: [], streamPrefix: '', from: '', to: '', after: null });
  const answer = useQuery<Feed>(feedQuery, {
    first: pageSize,
    after: filters.after,
    types: filters.types.length > 0 ? filters.types : null,
    streamPrefix: filters.streamPrefix === '' ? null : filters.streamPrefix,
    from: filters.from === '' ? null : dayStart(filters.from),
    to: filters.to === '' ? null : dayStart(filters.to, 1),
  });
  const submit = (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const types = String(form.get('types'))
      .split(/[\s,]+/)
      .filter((type) => type !== '');
    setFilters({ types, streamPrefix: String(form.get('stream')).trim(), from: String(form.get('from')), to: String(form.get('to')), after: null });
  };
  // The inputs keep what is typed (default values, the form made again when the filters applied change,
  // not when a page is turned): given as values, each answer's render would put the applied filters
  // back over what is being typed.
  const { after: _page, ...applied } = filters;
  return html`<form class="filters" key=${JSON.stringify(applied)} onSubmit=${submit} aria-label="Filtres du journal">
      <label>Types d’événement <input name="types" placeholder="SaleImported, SavCreated" defaultValue=${filters.types.join(', ')} /></label>
      <label>Flux commençant par <input name="stream" placeholder="sale-" defaultValue=${filters.streamPrefix} /></label>
      <label>Enregistrés du <input type="date" name="from" defaultValue=${filters.from} /></label>
      <label>au <input type="date" name="to" defaultValue=${filters.to} /></label>
      <button type="submit">Filtrer</button>
    </form>
    <${Pending} answer=${answer} />
    ${
      answer.state === 'answered' &&
      (answer.data.events.events.length === 0
        ? html`<p class="empty" role="status">Aucun événement pour ces filtres.</p>`
        : html`<table class="events">
              <caption>
                ${formatCount(answer.data.events.events.length)} événements${filters.after !== null && ` après la position ${filters.after}`}
              </caption>
              <thead>
                <tr>
                  <th scope="col">Position</th>
                  <th scope="col">Enregistré le</th>
                  <th scope="col">Type</th>
                  <th scope="col">Flux</th>
                  <th scope="col">Auteur</th>
                  <th scope="col">Données</th>
                </tr>
              </thead>
              <tbody>
                ${answer.data.events.events.map(
                  (event) =>
                    html`<tr data-event=${event.eventId}>
                      <td>${event.position}</td>
                      <td>${formatInstant(event.recordedAt)}</td>
                      <td class="type">${event.type}</td>
                      <td class="stream">${event.stream}</td>
                      <td>${event.actor.label ?? event.actor.group ?? event.actor.kind}</td>
                      <td>
                        <pre class="data" tabindex="0" aria-label=${`Données de l’événement ${event.position}`}>${JSON.stringify(event.data, null, 1)}</pre>
                      </td>
                    </tr>`,
                )}
              </tbody>
            </table>
            ${
              answer.data.events.hasNextPage &&
              html`<button type="button" onClick=${() => setFilters({ ...filters, after: answer.data.events.endCursor })}>Événements suivants</button>`
            }`)
    }`;
};
