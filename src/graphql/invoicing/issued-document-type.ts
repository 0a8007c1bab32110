import type { IssuedDocument } from '../../projections/invoicing/issued-document.ts';
import { builder } from '../builder.ts';

/**
 * An invoice or credit note of a sale, as issued (the `issued_documents` read model): its number,
 * when it was issued and its totals. The PDF itself is the core REST API's (`/api/invoices/...`).
 */

export const IssuedDocumentKindEnum = builder.enumType('IssuedDocumentKind', {
  values: { INVOICE: { value: 'invoice' as const }, CREDIT_NOTE: { value: 'credit-note' as const } },
});

const dataOf = (document: IssuedDocument) => (document.kind === 'invoice' ? document.invoice : document.creditNote);
const euros = (cents: number): number => cents / 100;

export const IssuedDocumentRef = builder.objectRef<IssuedDocument>('IssuedDocument').implement({
  description: 'Amounts in the sale currency, to the cent.',
  fields: (t) => ({
    number: t.exposeString('_id', { description: 'FA-<year>-<n> for an invoice, AV-<year>-<n> for a credit note.' }),
    kind: t.expose('kind', { type: IssuedDocumentKindEnum }),
    date: t.field({ type: 'LocalDate', resolve: (document) => dataOf(document).date }),
    issuedAt: t.expose('issuedAt', { type: 'DateTime' }),
    totalExcludingTax: t.float({ resolve: (document) => euros(dataOf(document).totals.htCents) }),
    vat: t.float({ resolve: (document) => euros(dataOf(document).totals.vatCents) }),
    totalIncludingTax: t.float({ resolve: (document) => euros(dataOf(document).totals.ttcCents) }),
    invoiceNumber: t.string({
      nullable: true,
      description: 'The invoice a credit note corrects; null for an invoice.',
      resolve: (document) => (document.kind === 'credit-note' ? document.invoiceNumber : null),
    }),
  }),
});
