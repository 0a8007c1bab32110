import type { Seller } from '../config/seller-settings.ts';
import { creditNoteData, linesToCredit } from './credit-note-data.ts';
import { invoiceData } from './invoice-data.ts';
import { vatRateOfPercent, type VatRate } from '../events/invoicing/vat.ts';
import { findIssuedForSales, findSaleCreditNotes, findSaleInvoice } from '../projections/invoicing/queries.ts';
import type { IssuedDocument } from '../projections/invoicing/issued-document.ts';
import type { ReadStore } from '../projections/read-store/read-store.ts';
import { findSaleById } from '../projections/sales/queries.ts';
import type { EventOfType } from '../events/registry.ts';
import { productDecider } from '../events/catalog/product-decider.ts';
import { productStreamName, type OperationCategory, type ProductEvent } from '../events/catalog/events.ts';
import type { Clock, CommandContext } from '../events/command-context.ts';
import { fold } from '../events/decider.ts';
import { readDomainStream } from '../events/domain-store.ts';
import type { EventStore } from '../events/store/event-store.ts';
import type { CreditNoteData, InvoiceData } from '../events/invoicing/documents.ts';
import { createIssuingRegister, type RegisterDeps } from '../events/invoicing/issuing-register.ts';

/**
 * Issuing a sale's invoice and credit notes. The invoice is issued when it is first asked for, with
 * the sale, its VAT rates and the seller as they are then, and recorded whole: asked again, the same
 * document (same number, same bytes) comes back. A credit note is issued for the invoiced lines
 * cancelled since (credit-note-data.ts), when the cancellation is recorded and, should that have been
 * interrupted, whenever the sale's documents are asked for.
 */
export type Invoicing = {
  /** The sale's invoice, issued now if it has none yet; null when there is no such sale. */
  invoiceFor: (saleId: number) => Promise<InvoiceData | null>;
  /** The credit note due now for the sale, issued; null when none is due (nothing invoiced was cancelled since, or no invoice). */
  creditNoteFor: (saleId: number) => Promise<CreditNoteData | null>;
};

type InvoiceIssued = EventOfType<'InvoiceIssued'>['data'];
type CreditNoteIssued = EventOfType<'CreditNoteIssued'>['data'];

export type InvoicingDeps = {
  eventStore: EventStore;
  readStore: ReadStore;
  clock: Clock;
  context: CommandContext;
  timezone: string;
  seller: Seller;
  /** Resolves true once the issued-documents read model has applied the events up to this position. */
  caughtUp: (position: number) => Promise<boolean>;
};

const asInvoice = (document: IssuedDocument): InvoiceIssued[] =>
  document.kind === 'invoice'
    ? [
        {
          number: document._id,
          year: document.year,
          sequence: document.sequence,
          saleId: document.saleId,
          issuedAt: document.issuedAt,
          invoice: document.invoice,
        },
      ]
    : [];

const asCreditNote = (document: IssuedDocument): CreditNoteIssued[] =>
  document.kind === 'credit-note'
    ? [
        {
          number: document._id,
          year: document.year,
          sequence: document.sequence,
          saleId: document.saleId,
          invoiceNumber: document.invoiceNumber,
          saleProductIds: document.saleProductIds,
          issuedAt: document.issuedAt,
          creditNote: document.creditNote,
        },
      ]
    : [];

const bySale = <Data extends { saleId: number }>(documents: Data[]): Map<number, Data[]> => {
  const grouped = new Map<number, Data[]>();
  for (const document of documents) grouped.set(document.saleId, [...(grouped.get(document.saleId) ?? []), document]);
  return grouped;
};

export const createInvoicing = (deps: InvoicingDeps): Invoicing => {
  const common = { eventStore: deps.eventStore, clock: deps.clock, context: deps.context, timezone: deps.timezone, caughtUp: deps.caughtUp };
  const invoices = createIssuingRegister<InvoiceIssued>({
    ...common,
    kind: 'invoice',
    toEvent: (data) => ({ type: 'InvoiceIssued', data }),
    issuedFor: async (saleIds) => bySale((await findIssuedForSales(deps.readStore, saleIds, 'invoice')).flatMap(asInvoice)),
  } satisfies RegisterDeps<InvoiceIssued>);
  const creditNotes = createIssuingRegister<CreditNoteIssued>({
    ...common,
    kind: 'credit-note',
    toEvent: (data) => ({ type: 'CreditNoteIssued', data }),
    issuedFor: async (saleIds) => bySale((await findIssuedForSales(deps.readStore, saleIds, 'credit-note')).flatMap(asCreditNote)),
  } satisfies RegisterDeps<CreditNoteIssued>);

  /**
   * The catalogue's rate and category of operation of each SKU, read from the products' streams (the
   * write side reads no read model for its data).
   */
  const catalogueTermsOf = async (skus: readonly string[]) => {
    const vatRates = new Map<string, VatRate>();
    const operationCategories = new Map<string, OperationCategory>();
    await Promise.all(
      [...new Set(skus)].map(async (sku) => {
        const state = fold(productDecider, (await readDomainStream<ProductEvent>(deps.eventStore, productStreamName(sku))).events);
        if (state.status !== 'catalogued') return;
        vatRates.set(sku, vatRateOfPercent(state.product.vat_rate));
        operationCategories.set(sku, state.product.operation_category);
      }),
    );
    return { vatRates, operationCategories };
  };

  return {
    invoiceFor: async (saleId) => {
      const existing = await findSaleInvoice(deps.readStore, saleId);
      if (existing) return existing.invoice;
      const sale = await findSaleById(deps.readStore, saleId);
      if (!sale) return null;
      const terms = await catalogueTermsOf(sale.products.map((product) => product.sku));
      const { issued, earlier } = await invoices.issue({
        saleId,
        draft: (numbered, earlier) =>
          earlier.length > 0
            ? null
            : {
                number: numbered.number,
                year: numbered.year,
                sequence: numbered.sequence,
                saleId,
                issuedAt: numbered.issuedAt,
                invoice: invoiceData(sale, numbered, { timezone: deps.timezone, seller: deps.seller, ...terms }),
              },
      });
      const invoice = issued ?? earlier[0];
      if (!invoice) throw new Error(`unreachable: sale ${saleId} has no invoice after issuing one`);
      return invoice.invoice;
    },

    creditNoteFor: async (saleId) => {
      const invoice = await findSaleInvoice(deps.readStore, saleId);
      const sale = invoice && (await findSaleById(deps.readStore, saleId));
      if (!invoice || !sale) return null;
      // Nothing to queue for when the read model already shows every cancelled line credited.
      const credited = await findSaleCreditNotes(deps.readStore, saleId);
      if (linesToCredit(invoice.invoice, sale, credited, deps.timezone).length === 0) return null;
      const { issued } = await creditNotes.issue({
        saleId,
        draft: (numbered, earlier) => {
          const lines = linesToCredit(invoice.invoice, sale, earlier, deps.timezone);
          if (lines.length === 0) return null;
          return {
            number: numbered.number,
            year: numbered.year,
            sequence: numbered.sequence,
            saleId,
            invoiceNumber: invoice._id,
            saleProductIds: lines.map((line) => line.saleProductId),
            issuedAt: numbered.issuedAt,
            creditNote: creditNoteData(invoice.invoice, lines, numbered, deps.seller),
          };
        },
      });
      return issued?.creditNote ?? null;
    },
  };
};
