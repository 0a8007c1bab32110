import type { Content, TableCell, TDocumentDefinitions } from 'pdfmake/interfaces.js';
import { formatDate, formatMoney, formatRate } from './french-format.ts';
import type { InvoiceData, InvoiceLine, InvoiceRefund } from './invoice-data.ts';
import { addressColumns, caption, customerLines } from './customer-mentions.ts';
import { demoNotice, footerText, operationMentions, paymentConditions, sellerBlock } from './legal-mentions.ts';
import { splitTaxIncluded } from '../events/invoicing/vat.ts';

/**
 * The layout of a sale's invoice (A4): seller with its legal identity, invoice references, customer,
 * lines with their unit price before and after tax and their VAT rate, VAT by rate, totals, payment,
 * refunds, payment conditions.
 */

const paymentStatuses = { paid: 'Payé', pending: 'En attente', failed: 'Échoué', refunded: 'Remboursé' } as const;

/** The payment methods the storefront and the marketplaces send, in French; another is printed as received. */
const paymentMethods: Record<string, string> = {
  card: 'Carte bancaire',
  credit_card: 'Carte bancaire',
  paypal: 'PayPal',
  bank_transfer: 'Virement bancaire',
  banktransfer: 'Virement bancaire',
  financing: 'Paiement en plusieurs fois',
  checkmo: 'Chèque',
  cheque: 'Chèque',
  cashondelivery: 'Paiement à la livraison',
  sepa_debit: 'Prélèvement SEPA',
  gift_card: 'Carte cadeau',
  free: 'Sans paiement',
};

export const paymentMethodLabel = (method: string): string => paymentMethods[method.toLowerCase()] ?? method;

/** A header row: the first `textColumns` are text, left-aligned; the others are figures, right-aligned. */
export const header = (cells: string[], textColumns = 2): TableCell[] =>
  cells.map((text, index) => ({ text, style: 'tableHeader', alignment: index < textColumns ? 'left' : 'right' }));

export const right = (text: string, style: { bold?: boolean; color?: string } = {}): TableCell => ({ text, alignment: 'right', ...style });

/** The unit price before tax, for information: the VAT itself is computed per rate on the totals. */
export const unitPriceHt = (line: Pick<InvoiceLine, 'unitPriceCents' | 'rate'>): number => splitTaxIncluded(line.unitPriceCents, line.rate).htCents;

const lineRow = (line: InvoiceLine, money: (cents: number) => string): TableCell[] => {
  if (!line.cancelled) {
    return [
      line.sku,
      line.name,
      right(String(line.qty)),
      right(money(unitPriceHt(line))),
      right(money(line.unitPriceCents)),
      right(formatRate(line.rate)),
      right(money(line.totalCents)),
    ];
  }
  // Grey rather than italics: each style of the font a document uses is one more font file to parse,
  // which is most of the rendering time.
  const muted = { color: '#777777' };
  return [
    { text: line.sku, ...muted },
    { stack: [line.name, { text: 'Article annulé, non facturé', fontSize: 7 }], ...muted },
    right(String(line.qty), muted),
    right(money(unitPriceHt(line)), muted),
    right(money(line.unitPriceCents), muted),
    right(formatRate(line.rate), muted),
    right('Annulé', muted),
  ];
};

const linesTable = (invoice: InvoiceData, money: (cents: number) => string): Content => {
  const rows: TableCell[][] = [
    header(['Réf.', 'Désignation', 'Qté', 'P.U. HT', 'P.U. TTC', 'TVA', 'Total TTC']),
    ...invoice.lines.map((line) => lineRow(line, money)),
  ];
  if (invoice.shipping) {
    const rates = invoice.shipping.parts.map((part) => formatRate(part.rate)).join(' / ');
    const fee = money(invoice.shipping.ttcCents);
    const feeHt = money(invoice.shipping.parts.reduce((sum, part) => sum + splitTaxIncluded(part.ttcCents, part.rate).htCents, 0));
    rows.push(['', 'Frais de livraison', right('1'), right(feeHt), right(fee), right(rates), right(fee)]);
  }
  return { table: { headerRows: 1, widths: [80, '*', 22, 54, 54, 34, 60], body: rows }, layout: 'lightHorizontalLines', margin: [0, 4, 0, 10] };
};

export const vatAndTotals = (invoice: Pick<InvoiceData, 'vat' | 'totals'>, money: (cents: number) => string): Content => ({
  // One under the other: read back (pdftotext, a screen reader), each row stays whole.
  stack: [
    caption('DÉTAIL DE LA TVA'),
    {
      table: {
        headerRows: 1,
        widths: [40, 70, 60, 70],
        body: [
          header(['Taux', 'Base HT', 'TVA', 'Total TTC'], 1),
          ...invoice.vat.map((line): TableCell[] => [
            formatRate(line.rate),
            right(money(line.htCents)),
            right(money(line.vatCents)),
            right(money(line.ttcCents)),
          ]),
        ],
      },
      layout: 'lightHorizontalLines',
    },
    {
      columns: [
        { width: '*', text: '' },
        {
          width: 190,
          table: {
            widths: ['*', 80],
            body: [
              ['Total HT', right(money(invoice.totals.htCents))],
              ['Total TVA', right(money(invoice.totals.vatCents))],
              [{ text: 'Total TTC', bold: true }, right(money(invoice.totals.ttcCents), { bold: true })],
            ],
          },
          layout: 'lightHorizontalLines',
        },
      ],
      margin: [0, 6, 0, 0],
    },
  ],
  margin: [0, 0, 0, 12],
});

const payment = (invoice: InvoiceData, money: (cents: number) => string): Content[] => {
  if (!invoice.payment) return [caption('RÈGLEMENT'), 'Aucun règlement enregistré pour cette commande.'];
  const { method, status, amountPaidCents } = invoice.payment;
  return [
    caption('RÈGLEMENT'),
    `Mode : ${paymentMethodLabel(method)}`,
    `Statut : ${paymentStatuses[status]}`,
    ...(amountPaidCents === null ? [] : [`Montant payé : ${money(amountPaidCents)}`]),
  ];
};

const refundStatus = (refund: InvoiceRefund): string => (refund.paidOn ? `Versé le ${formatDate(refund.paidOn)}` : 'En cours');

const refunds = (invoice: InvoiceData, money: (cents: number) => string): Content[] =>
  invoice.refunds.length === 0
    ? []
    : [
        caption('REMBOURSEMENTS'),
        {
          table: {
            headerRows: 1,
            widths: [40, 60, '*', 70, 90],
            body: [
              header(['N°', 'Demandé le', 'Articles', 'Montant', 'Statut'], 3),
              ...invoice.refunds.map((refund): TableCell[] => [
                String(refund.refundId),
                formatDate(refund.requestedOn),
                refund.skus.join(', '),
                right(money(refund.amountCents)),
                right(refundStatus(refund)),
              ]),
            ],
          },
          layout: 'lightHorizontalLines',
        },
      ];

/**
 * What every document of record shares: A4, the fonts and styles, PDF metadata dated by the issue (not
 * now: an issued document always renders to the same bytes), and a footer naming the seller and the
 * document on every page.
 */
export const documentOfRecord = (options: {
  title: string;
  subject: string;
  seller: InvoiceData['seller'];
  issuedAt: string;
  content: Content[];
}): TDocumentDefinitions => {
  const { title, subject, seller, issuedAt, content } = options;
  return {
    pageSize: 'A4',
    pageMargins: [40, 40, 40, 50],
    info: { title, subject, author: seller.name, creator: seller.name, creationDate: new Date(issuedAt) },
    defaultStyle: { font: 'Roboto', fontSize: 9 },
    styles: {
      caption: { fontSize: 8, bold: true, color: '#555555', margin: [0, 6, 0, 2] },
      tableHeader: { bold: true, fontSize: 8, color: '#333333' },
    },
    footer: (currentPage, pageCount) => ({
      text: `${footerText(seller, title)} — page ${currentPage} / ${pageCount}`,
      fontSize: 7,
      color: '#777777',
      alignment: 'center',
    }),
    content,
  };
};

export const invoiceDocument = (invoice: InvoiceData): TDocumentDefinitions => {
  const money = (cents: number): string => formatMoney(cents, invoice.currency);
  const { seller } = invoice;
  return documentOfRecord({
    title: `Facture ${invoice.number}`,
    subject: `Commande ${invoice.incrementId}`,
    seller,
    issuedAt: invoice.issuedAt,
    content: [
      {
        columns: [
          sellerBlock(seller),
          {
            stack: [
              { text: 'FACTURE', bold: true, fontSize: 20 },
              { text: `N° ${invoice.number}`, bold: true },
              `Date : ${formatDate(invoice.date)}`,
              `Commande n° ${invoice.incrementId} du ${formatDate(invoice.orderDate)}`,
            ],
            alignment: 'right',
          },
        ],
        margin: [0, 0, 0, 14],
      },
      ...demoNotice(seller),
      ...(invoice.cancelledOn
        ? [{ text: `Commande annulée le ${formatDate(invoice.cancelledOn)}`, bold: true, color: '#a00000', margin: [0, 0, 0, 8] } as Content]
        : []),
      ...customerLines(invoice, { phone: true }),
      addressColumns(invoice.billingAddress, invoice.shippingAddress),
      ...operationMentions(invoice),
      linesTable(invoice, money),
      vatAndTotals(invoice, money),
      ...payment(invoice, money),
      ...refunds(invoice, money),
      {
        text: 'Prix exprimés toutes taxes comprises ; la TVA est calculée par taux sur les montants TTC. Les articles annulés ne sont pas facturés.',
        fontSize: 7,
        color: '#555555',
        margin: [0, 16, 0, 0],
      },
      paymentConditions(seller),
    ],
  });
};
