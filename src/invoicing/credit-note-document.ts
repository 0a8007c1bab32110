import type { TableCell, TDocumentDefinitions } from 'pdfmake/interfaces.js';
import type { CreditNoteData } from '../events/invoicing/documents.ts';
import { formatDate, formatMoney, formatRate } from './french-format.ts';
import { addressColumns, caption, customerLines } from './customer-mentions.ts';
import { documentOfRecord, header, right, unitPriceHt, vatAndTotals } from './invoice-document.ts';
import { demoNotice, operationMentions, paymentConditions, sellerBlock } from './legal-mentions.ts';

/**
 * The layout of a credit note (A4), in the invoice's shape: it names the invoice it corrects, lists
 * the lines it credits (cancelled after invoicing) at the invoice's amounts and rates, and their VAT
 * and totals, which are owed back to the customer.
 */
export const creditNoteDocument = (creditNote: CreditNoteData): TDocumentDefinitions => {
  const money = (cents: number): string => formatMoney(cents, creditNote.currency);
  const { seller } = creditNote;
  const rows: TableCell[][] = [
    header(['Réf.', 'Désignation', 'Qté', 'P.U. HT', 'P.U. TTC', 'TVA', 'Total TTC']),
    ...creditNote.lines.map((line): TableCell[] => [
      line.sku,
      { stack: [line.name, { text: `Annulé le ${formatDate(line.cancelledOn)}`, fontSize: 7, color: '#555555' }] },
      right(String(line.qty)),
      right(money(unitPriceHt(line))),
      right(money(line.unitPriceCents)),
      right(formatRate(line.rate)),
      right(money(line.totalCents)),
    ]),
  ];
  return documentOfRecord({
    title: `Avoir ${creditNote.number}`,
    subject: `Facture ${creditNote.invoice.number}, commande ${creditNote.incrementId}`,
    seller,
    issuedAt: creditNote.issuedAt,
    content: [
      {
        columns: [
          sellerBlock(seller),
          {
            stack: [
              { text: 'AVOIR', bold: true, fontSize: 20 },
              { text: `N° ${creditNote.number}`, bold: true },
              `Date : ${formatDate(creditNote.date)}`,
              `Facture rectifiée : ${creditNote.invoice.number} du ${formatDate(creditNote.invoice.date)}`,
              `Commande n° ${creditNote.incrementId} du ${formatDate(creditNote.orderDate)}`,
            ],
            alignment: 'right',
          },
        ],
        margin: [0, 0, 0, 14],
      },
      ...demoNotice(seller),
      ...customerLines(creditNote, { phone: false }),
      addressColumns(creditNote.billingAddress, creditNote.shippingAddress),
      ...operationMentions(creditNote),
      caption('ARTICLES ANNULÉS APRÈS FACTURATION'),
      { table: { headerRows: 1, widths: [80, '*', 22, 54, 54, 34, 60], body: rows }, layout: 'lightHorizontalLines', margin: [0, 4, 0, 10] },
      vatAndTotals(creditNote, money),
      {
        text: `Montant de l’avoir, à déduire de la facture ${creditNote.invoice.number} et remboursé au client : ${money(creditNote.totals.ttcCents)}`,
        bold: true,
      },
      {
        text: 'La facture d’origine n’est pas modifiée : le présent avoir en annule les lignes ci-dessus.',
        fontSize: 7,
        color: '#555555',
        margin: [0, 16, 0, 0],
      },
      paymentConditions(seller),
    ],
  });
};
