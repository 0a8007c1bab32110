import { earlyPaymentDiscount } from '../../config/seller-settings.ts';
import type { CreditNoteData, InvoiceData } from '../../events/invoicing/documents.ts';
import { formatDate } from '../french-format.ts';
import { recoveryIndemnity } from '../legal-mentions.ts';
import { buyerParty, sellerParty, shipToParty } from './cii-parties.ts';
import { prepaidCents, settlement } from './cii-settlement.ts';
import { categoryTax, dateTime, decimalAmount } from './cii-values.ts';
import { creditNoteNetFigures, invoiceNetFigures, type NetLine } from './net-lines.ts';
import { branch, leaf, type Child } from './xml-elements.ts';

/**
 * An invoice or credit note as UN/CEFACT Cross Industry Invoice (D16B), EN 16931 profile: the XML a
 * Factur-X PDF carries. Written from the document's recorded data, so that it says what the page says:
 * its number and dates, the parties, the lines, the VAT by rate and the totals, to the cent.
 */

/** The category of the operation (a mention of the 2026 reform): delivery of goods, services, or both; absent on a document issued before it (BT-23 left out). */
type OperationCategory = NonNullable<InvoiceData['operationCategory']>;

const namespaces = {
  'xmlns:rsm': 'urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100',
  'xmlns:qdt': 'urn:un:unece:uncefact:data:standard:QualifiedDataType:100',
  'xmlns:ram': 'urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100',
  'xmlns:udt': 'urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100',
};

/**
 * BT-23, the billing framework of the French e-invoicing specifications: B1 goods, S1 services, M1
 * both. Not B2/S2/M2 (already paid) even for a paid sale: those require the payment's date as the due
 * date (BR-FR-CO-09), which the document does not record.
 */
const businessProcess = { goods: 'B1', services: 'S1', mixed: 'M1' } as const;

const documentContext = (category: OperationCategory | undefined): string =>
  branch('rsm:ExchangedDocumentContext', [
    category !== undefined && branch('ram:BusinessProcessSpecifiedDocumentContextParameter', [leaf('ram:ID', businessProcess[category])]),
    branch('ram:GuidelineSpecifiedDocumentContextParameter', [leaf('ram:ID', 'urn:cen.eu:en16931:2017')]),
  ]);

type Note = { content: string; subjectCode?: string };

const exchangedDocument = (number: string, typeCode: '380' | '381', date: string, notes: readonly Note[]): string =>
  branch('rsm:ExchangedDocument', [
    leaf('ram:ID', number),
    leaf('ram:TypeCode', typeCode),
    branch('ram:IssueDateTime', [dateTime(date)]),
    ...notes.map((note) =>
      branch('ram:IncludedNote', [leaf('ram:Content', note.content), note.subjectCode !== undefined && leaf('ram:SubjectCode', note.subjectCode)]),
    ),
  ]);

/**
 * The seller's payment conditions the page prints (UNTDID 4451: PMD penalties, PMT the recovery
 * indemnity, AAB the discount for early payment or its absence, as the payment terms state it).
 */
const paymentNotes = (seller: InvoiceData['seller']): Note[] => {
  const discount = earlyPaymentDiscount(seller.paymentTerms);
  return [
    { content: `Pénalités de retard : ${seller.latePaymentPenalties}`, subjectCode: 'PMD' },
    { content: recoveryIndemnity, subjectCode: 'PMT' },
    ...(discount === undefined ? [] : [{ content: discount, subjectCode: 'AAB' }]),
  ];
};

const lineItem = (line: NetLine, index: number): string =>
  branch('ram:IncludedSupplyChainTradeLineItem', [
    branch('ram:AssociatedDocumentLineDocument', [
      leaf('ram:LineID', String(index + 1)),
      line.note !== undefined && branch('ram:IncludedNote', [leaf('ram:Content', line.note)]),
    ]),
    branch('ram:SpecifiedTradeProduct', [line.sku !== '' && leaf('ram:SellerAssignedID', line.sku), leaf('ram:Name', line.name || line.sku)]),
    branch('ram:SpecifiedLineTradeAgreement', [branch('ram:NetPriceProductTradePrice', [leaf('ram:ChargeAmount', decimalAmount(line.unitPriceHtCents))])]),
    branch('ram:SpecifiedLineTradeDelivery', [leaf('ram:BilledQuantity', String(line.qty), { unitCode: 'C62' })]),
    branch('ram:SpecifiedLineTradeSettlement', [
      categoryTax('ram:ApplicableTradeTax', line.rate),
      branch('ram:SpecifiedTradeSettlementLineMonetarySummation', [leaf('ram:LineTotalAmount', decimalAmount(line.netCents))]),
    ]),
  ]);

type Transaction = { lines: readonly NetLine[]; agreement: Child[]; delivery: Child[]; settlement: string };

const crossIndustryInvoice = (context: string, document: string, transaction: Transaction): string =>
  [
    '<?xml version="1.0" encoding="UTF-8"?>',
    branch(
      'rsm:CrossIndustryInvoice',
      [
        context,
        document,
        branch('rsm:SupplyChainTradeTransaction', [
          ...transaction.lines.map(lineItem),
          branch('ram:ApplicableHeaderTradeAgreement', transaction.agreement),
          branch('ram:ApplicableHeaderTradeDelivery', transaction.delivery),
          transaction.settlement,
        ]),
      ],
      namespaces,
    ),
    '',
  ].join('\n');

const orderReference = (incrementId: string): string => branch('ram:SellerOrderReferencedDocument', [leaf('ram:IssuerAssignedID', incrementId)]);

export const invoiceCrossIndustryXml = (invoice: InvoiceData): string => {
  const figures = invoiceNetFigures(invoice);
  const prepaid = prepaidCents(invoice);
  const cancelled = invoice.lines.filter((line) => line.cancelled).map((line) => line.sku);
  const notes: Note[] = [
    ...(invoice.cancelledOn === null ? [] : [{ content: `Commande annulée le ${formatDate(invoice.cancelledOn)}` }]),
    ...(cancelled.length === 0 ? [] : [{ content: `Articles annulés, non facturés : ${cancelled.join(', ')}` }]),
    ...paymentNotes(invoice.seller),
  ];
  return crossIndustryInvoice(documentContext(invoice.operationCategory), exchangedDocument(invoice.number, '380', invoice.date, notes), {
    lines: figures.lines,
    agreement: [
      sellerParty(invoice.seller),
      buyerParty(invoice.customer, invoice.billingAddress, invoice.businessCustomer),
      orderReference(invoice.incrementId),
    ],
    delivery: [shipToParty(invoice.shippingAddress)],
    settlement: settlement({
      currency: invoice.currency,
      figures,
      totals: invoice.totals,
      prepaidCents: prepaid,
      paymentTerms: invoice.seller.paymentTerms,
      // The seller opted to pay VAT on debits: the tax point is the invoice's date (BT-8, code 5).
      vatOnDebits: invoice.seller.vatOnDebits ?? false,
    }),
  });
};

/** A credit note (type 381) names the invoice it corrects; its amounts, positive, are owed to the customer. */
export const creditNoteCrossIndustryXml = (creditNote: CreditNoteData): string => {
  const figures = creditNoteNetFigures(creditNote);
  return crossIndustryInvoice(
    documentContext(creditNote.operationCategory),
    exchangedDocument(creditNote.number, '381', creditNote.date, paymentNotes(creditNote.seller)),
    {
      lines: figures.lines,
      agreement: [
        sellerParty(creditNote.seller),
        buyerParty(creditNote.customer, creditNote.billingAddress, creditNote.businessCustomer),
        orderReference(creditNote.incrementId),
      ],
      delivery: creditNote.shippingAddress ? [shipToParty(creditNote.shippingAddress)] : [],
      settlement: settlement({
        currency: creditNote.currency,
        figures,
        totals: creditNote.totals,
        prepaidCents: 0,
        paymentTerms: creditNote.seller.paymentTerms,
        vatOnDebits: creditNote.seller.vatOnDebits ?? false,
        corrects: creditNote.invoice,
      }),
    },
  );
};
