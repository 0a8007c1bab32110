/// <reference lib="dom" />
import { useState } from 'preact/hooks';
import { formatCount, formatDate, formatInstant, formatMoney } from '../format.ts';
import { html } from '../html.ts';
import { Pending, useQuery } from '../use-query.ts';

/**
 * One sale, found by its increment ID or its customer's e-mail: its products, SAVs, invoice and credit
 * notes, its log as a timeline, and the sale as it stood at an earlier instant (`saleAt`). Only the
 * increment ID goes into the address; an e-mail is personal data and stays in the page.
 */

type Product = { saleProductId: number; sku: string; name: string; qty: number; price: number; supplier: string | null; state: string };
type Sale = {
  incrementId: string;
  status: string;
  orderedAt: string;
  currency: string;
  grandTotal: number;
  customer: { firstname: string; lastname: string; email: string };
  products: Product[];
  refunds: { refundId: number; amount: number; status: string; requestedAt: string }[];
  savs: { savId: number; complaintName: string; savType: string; status: string; createdAt: string }[];
  invoice: { number: string; date: string; totalIncludingTax: number } | null;
  creditNotes: { number: string; date: string; totalIncludingTax: number; invoiceNumber: string | null }[];
  log: { eventId: string; type: string; occurredAt: string; summary: { fr: string }; actor: { kind: string; label: string | null } }[];
};
type Snapshot = {
  status: string;
  grandTotal: number;
  occurredAt: string;
  products: Product[];
  refunds: { refundId: number; amount: number; status: string }[];
};

const productFields = 'saleProductId sku name qty price supplier state';
const saleQuery = `query Sale($incrementId: String!) {
  sale(incrementId: $incrementId) {
    incrementId status orderedAt currency grandTotal
    customer { firstname lastname email }
    products { ${productFields} }
    refunds { refundId amount status requestedAt }
    savs { savId complaintName savType status createdAt }
    invoice { number date totalIncludingTax }
    creditNotes { number date totalIncludingTax invoiceNumber }
    log { eventId type occurredAt summary { fr } actor { kind label } }
  }
}`;
const salesByEmailQuery = `query SalesByEmail($email: String!) {
  sales(first: 50, filter: { customerEmail: $email }) { edges { node { incrementId orderedAt status grandTotal currency } } }
}`;
const saleAtQuery = `query SaleAt($incrementId: String!, $at: DateTime!) {
  saleAt(incrementId: $incrementId, asOf: { at: $at }) { status grandTotal occurredAt products { ${productFields} } refunds { refundId amount status } }
}`;

const statuses: Record<string, string> = {
  processing: 'en cours',
  complete: 'terminée',
  cancelled: 'annulée',
  pending: 'en attente',
  acknowledged: 'confirmé',
  shipped: 'expédié',
  in_progress: 'en cours',
  resolved: 'résolu',
  closed: 'clos',
  requested: 'demandé',
  paid: 'payé',
};
const statusOf = (status: string): string => statuses[status] ?? status;

const Products = ({ products, currency }: { products: Product[]; currency: string }) =>
  html`<table class="products">
    <caption>
      Produits
    </caption>
    <thead>
      <tr>
        <th scope="col">Réf.</th>
        <th scope="col">Produit</th>
        <th scope="col">Qté</th>
        <th scope="col">Prix</th>
        <th scope="col">Fournisseur</th>
        <th scope="col">État</th>
      </tr>
    </thead>
    <tbody>
      ${products.map(
        (product) =>
          html`<tr data-product=${product.saleProductId}>
            <td>${product.sku}</td>
            <td>${product.name}</td>
            <td>${formatCount(product.qty)}</td>
            <td>${formatMoney(product.price, currency)}</td>
            <td>${product.supplier ?? 'stock propre'}</td>
            <td class="state">${statusOf(product.state)}</td>
          </tr>`,
      )}
    </tbody>
  </table>`;

const AsOf = ({ sale }: { sale: Sale }) => {
  const [at, setAt] = useState<string | null>(null);
  const answer = useQuery<{ saleAt: Snapshot | null }>(at === null ? null : saleAtQuery, { incrementId: sale.incrementId, at });
  const submit = (event: Event) => {
    event.preventDefault();
    const value = String(new FormData(event.currentTarget as HTMLFormElement).get('at'));
    const instant = new Date(value);
    if (value === '' || Number.isNaN(instant.getTime())) return;
    setAt(instant.toISOString());
  };
  return html`<section aria-labelledby="a-une-date" class="as-of">
    <h2 id="a-une-date">La vente à une date passée</h2>
    <form onSubmit=${submit}>
      <label>Telle qu’elle était le <input type="datetime-local" name="at" step="1" required /></label>
      <button type="submit">Voir</button>
    </form>
    ${at !== null && html`<${Pending} answer=${answer} />`}
    ${
      at !== null &&
      answer.state === 'answered' &&
      (answer.data.saleAt === null
        ? html`<p class="empty">La vente n’existait pas encore à cet instant.</p>`
        : html`<div data-as-of=${at}>
            <p>
              Au ${formatInstant(at)} : commande <strong class="as-of-status">${statusOf(answer.data.saleAt.status)}</strong>, total
              <span class="as-of-total">${formatMoney(answer.data.saleAt.grandTotal, sale.currency)}</span> (dernier événement le
              ${formatInstant(answer.data.saleAt.occurredAt)}).
            </p>
            <${Products} products=${answer.data.saleAt.products} currency=${sale.currency} />
          </div>`)
    }
  </section>`;
};

const SaleDetails = ({ incrementId }: { incrementId: string }) => {
  const answer = useQuery<{ sale: Sale | null }>(saleQuery, { incrementId });
  if (answer.state !== 'answered') return html`<${Pending} answer=${answer} />`;
  const sale = answer.data.sale;
  if (sale === null) return html`<p class="empty" role="status">Aucune vente n’a le numéro ${incrementId}.</p>`;
  return html`<article class="sale" data-sale=${sale.incrementId}>
    <h2>Commande ${sale.incrementId}</h2>
    <dl class="figures">
      <div class="figure" data-figure="status">
        <dt>Statut</dt>
        <dd class="value">${statusOf(sale.status)}</dd>
      </div>
      <div class="figure" data-figure="orderedAt">
        <dt>Passée le</dt>
        <dd class="value">${formatInstant(sale.orderedAt)}</dd>
      </div>
      <div class="figure" data-figure="grandTotal">
        <dt>Total TTC</dt>
        <dd class="value">${formatMoney(sale.grandTotal, sale.currency)}</dd>
      </div>
      <div class="figure" data-figure="customer">
        <dt>Client</dt>
        <dd class="value">${sale.customer.firstname} ${sale.customer.lastname}</dd>
      </div>
    </dl>
    <${Products} products=${sale.products} currency=${sale.currency} />
    <h3>SAV</h3>
    ${
      sale.savs.length === 0
        ? html`<p class="empty">Aucun SAV pour cette vente.</p>`
        : html`<ul class="savs">
            ${sale.savs.map(
              (sav) =>
                html`<li data-sav=${sav.savId}>
                  SAV n° ${sav.savId} : ${sav.complaintName} (${sav.savType}), ${statusOf(sav.status)}, ouvert le ${formatInstant(sav.createdAt)}
                </li>`,
            )}
          </ul>`
    }
    <h3>Facture et avoirs</h3>
    <ul class="documents">
      ${
        sale.invoice === null
          ? html`<li>Pas encore de facture.</li>`
          : html`<li data-document=${sale.invoice.number}>
              Facture ${sale.invoice.number} du ${formatDate(sale.invoice.date)} : ${formatMoney(sale.invoice.totalIncludingTax, sale.currency)}
            </li>`
      }
      ${sale.creditNotes.map(
        (note) =>
          html`<li data-document=${note.number}>
            Avoir ${note.number} du ${formatDate(note.date)} : ${formatMoney(note.totalIncludingTax, sale.currency)} (sur la facture ${note.invoiceNumber})
          </li>`,
      )}
    </ul>
    <h3>Remboursements</h3>
    ${
      sale.refunds.length === 0
        ? html`<p class="empty">Aucun remboursement.</p>`
        : html`<ul>
            ${sale.refunds.map((refund) => html`<li>${formatMoney(refund.amount, sale.currency)}, ${statusOf(refund.status)} le ${formatInstant(refund.requestedAt)}</li>`)}
          </ul>`
    }
    <h3>Historique</h3>
    <ol class="timeline">
      ${sale.log.map(
        (entry) =>
          html`<li data-event=${entry.eventId}>
            <time datetime=${entry.occurredAt}>${formatInstant(entry.occurredAt)}</time>
            <span>${entry.summary.fr}</span>
            <span class="actor">${entry.actor.label ?? entry.actor.kind}</span>
          </li>`,
      )}
    </ol>
    <${AsOf} sale=${sale} />
  </article>`;
};

const SalesOf = ({ email, onPick }: { email: string; onPick: (incrementId: string) => void }) => {
  type Found = { sales: { edges: { node: { incrementId: string; orderedAt: string; status: string; grandTotal: number; currency: string } }[] } };
  const answer = useQuery<Found>(salesByEmailQuery, { email });
  if (answer.state !== 'answered') return html`<${Pending} answer=${answer} />`;
  const found = answer.data.sales.edges.map((edge) => edge.node);
  if (found.length === 0) return html`<p class="empty" role="status">Aucune vente pour cette adresse e-mail.</p>`;
  return html`<ul class="found">
    ${found.map(
      (sale) =>
        html`<li>
          <button type="button" class="link" onClick=${() => onPick(sale.incrementId)}>Commande ${sale.incrementId}</button>
          du ${formatInstant(sale.orderedAt)}, ${statusOf(sale.status)}, ${formatMoney(sale.grandTotal, sale.currency)}
        </li>`,
    )}
  </ul>`;
};

export const SalePage = () => {
  const [incrementId, setIncrementId] = useState<string | null>(() => new URLSearchParams(location.search).get('commande'));
  const [email, setEmail] = useState<string | null>(null);
  const pick = (id: string) => {
    history.replaceState(null, '', `${location.pathname}?${new URLSearchParams({ commande: id })}`);
    setEmail(null);
    setIncrementId(id);
  };
  const submit = (event: Event) => {
    event.preventDefault();
    const wanted = String(new FormData(event.currentTarget as HTMLFormElement).get('search')).trim();
    if (wanted === '') return;
    if (wanted.includes('@')) {
      setIncrementId(null);
      history.replaceState(null, '', location.pathname);
      setEmail(wanted);
    } else pick(wanted);
  };
  // A default value, the form made again for another sale: an answer's render leaves what is being typed alone.
  return html`<form class="search" key=${incrementId ?? ''} onSubmit=${submit} role="search">
      <label for="search">Numéro de commande ou e-mail du client</label>
      <input id="search" name="search" type="search" required defaultValue=${incrementId ?? ''} />
      <button type="submit">Chercher</button>
    </form>
    ${email !== null && html`<${SalesOf} email=${email} onPick=${pick} />`} ${incrementId !== null && html`<${SaleDetails} incrementId=${incrementId} />`}`;
};
