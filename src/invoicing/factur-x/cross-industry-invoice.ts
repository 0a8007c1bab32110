import type { CreditNoteData, InvoiceData } from '../../events/invoicing/documents.ts';
import { formatDate } from '../french-format.ts';
import { recoveryIndemnity } from '../legal-mentions.ts';
import type { VatLine, VatRate } from '../vat.ts';
import { buyerParty, sellerParty, shipToParty, type FacturXBuyer } from './cii-parties.ts';
import { creditNoteNetFigures, invoiceNetFigures, type NetFigures, type NetLine, type RoundingAdjustment } from './net-lines.ts';
import { branch, leaf, type Child } from './xml-elements.ts';

/**
 * An invoice or credit note as UN/CEFACT Cross Industry Invoice (D16B), EN 16931 profile: the XML a
 * Factur-X PDF carries. Written from the document's recorded data, so that it says what the page says:
 * its number and dates, the parties, the lines, the VAT by rate and the totals, to the cent.
 */

export type { FacturXBuyer } from './cii-parties.ts';

/** The category of the operation (a mention of the 2026 reform): delivery of goods, services, or both. */
export type OperationCategory = 'goods' | 'services' | 'goods-and-services';

export type FacturXOptions = {
  /** A business buyer's identity; absent for a consumer. */
  buyer?: FacturXBuyer;
  /** Absent: the document names no category (BT-23 left out). */
  category?: OperationCategory;
  /** The seller opted to pay VAT on debits: the tax point is the invoice's date (BT-8, code 5). */
  vatOnDebits?: boolean;
};

const namespaces = {
  'xmlns:rsm': 'urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100',
  'xmlns:qdt': 'urn:un:unece:uncefact:data:standard:QualifiedDataType:100',
  'xmlns:ram': 'urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100',
  'xmlns:udt': 'urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100',
};

/** Cents as a decimal amount: 140780 is 1407.80. */
export const decimalAmount = (cents: number): string => {
  const absolute = Math.abs(cents);
  return `${cents < 0 ? '-' : ''}${Math.floor(absolute / 100)}.${String(absolute % 100).padStart(2, '0')}`;
};

const percent = (rate: VatRate): string => decimalAmount(rate);

const dateTime = (localDate: string, type: 'udt' | 'qdt' = 'udt'): string => leaf(`${type}:DateTimeString`, localDate.replaceAll('-', ''), { format: '102' });

// UNTDID 5305: S standard rate, Z zero rate (a rate of 0 is not a standard rate, BR-S-05).
const categoryCode = (rate: VatRate): string => (rate === 0 ? 'Z' : 'S');

/**
 * BT-23, the billing framework of the French e-invoicing specifications: B1 goods, S1 services, M1
 * both. Not B2/S2/M2 (already paid) even for a paid sale: those require the payment's date as the due
 * date (BR-FR-CO-09), which the document does not record.
 */
const businessProcess = { goods: 'B1', services: 'S1', 'goods-and-services': 'M1' } as const;

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

/** The seller's payment conditions the page prints (UNTDID 4451: PMD penalties, PMT the recovery indemnity). */
const paymentNotes = (seller: InvoiceData['seller']): Note[] => [
  { content: `Pénalités de retard : ${seller.latePaymentPenalties}`, subjectCode: 'PMD' },
  { content: recoveryIndemnity, subjectCode: 'PMT' },
];

const categoryTax = (name: 'ram:ApplicableTradeTax' | 'ram:CategoryTradeTax', rate: VatRate): string =>
  branch(name, [leaf('ram:TypeCode', 'VAT'), leaf('ram:CategoryCode', categoryCode(rate)), leaf('ram:RateApplicablePercent', percent(rate))]);

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

const headerTax = (vat: VatLine, vatOnDebits: boolean): string =>
  branch('ram:ApplicableTradeTax', [
    leaf('ram:CalculatedAmount', decimalAmount(vat.vatCents)),
    leaf('ram:TypeCode', 'VAT'),
    leaf('ram:BasisAmount', decimalAmount(vat.htCents)),
    leaf('ram:CategoryCode', categoryCode(vat.rate)),
    vatOnDebits && leaf('ram:DueDateTypeCode', '5'),
    leaf('ram:RateApplicablePercent', percent(vat.rate)),
  ]);

/** BG-20 / BG-21: a rate's rounding, an allowance when its lines exceed its base, else a charge. */
const roundingAdjustment = ({ rate, cents }: RoundingAdjustment): string =>
  branch('ram:SpecifiedTradeAllowanceCharge', [
    branch('ram:ChargeIndicator', [leaf('udt:Indicator', String(cents > 0))]),
    leaf('ram:ActualAmount', decimalAmount(Math.abs(cents))),
    leaf('ram:Reason', 'Arrondi des prix unitaires HT (prix TTC, TVA calculée par taux)'),
    categoryTax('ram:CategoryTradeTax', rate),
  ]);

const sumOf = (amounts: readonly number[]): number => amounts.reduce((sum, cents) => sum + cents, 0);

type Settlement = {
  currency: string;
  figures: NetFigures;
  totals: InvoiceData['totals'];
  prepaidCents: number;
  paymentTerms: string;
  vatOnDebits: boolean;
  /** A credit note's: the invoice it corrects (BG-3). */
  corrects?: CreditNoteData['invoice'];
};

const settlement = ({ currency, figures, totals, prepaidCents, paymentTerms, vatOnDebits, corrects }: Settlement): string => {
  const roundings = figures.roundings.map((rounding) => rounding.cents);
  const charges = roundings.filter((cents) => cents > 0);
  const allowances = roundings.filter((cents) => cents < 0);
  return branch('ram:ApplicableHeaderTradeSettlement', [
    leaf('ram:InvoiceCurrencyCode', currency),
    ...figures.vat.map((vat) => headerTax(vat, vatOnDebits)),
    ...figures.roundings.map(roundingAdjustment),
    paymentTerms !== '' && branch('ram:SpecifiedTradePaymentTerms', [leaf('ram:Description', paymentTerms)]),
    branch('ram:SpecifiedTradeSettlementHeaderMonetarySummation', [
      leaf('ram:LineTotalAmount', decimalAmount(sumOf(figures.lines.map((line) => line.netCents)))),
      charges.length > 0 && leaf('ram:ChargeTotalAmount', decimalAmount(sumOf(charges))),
      allowances.length > 0 && leaf('ram:AllowanceTotalAmount', decimalAmount(-sumOf(allowances))),
      leaf('ram:TaxBasisTotalAmount', decimalAmount(totals.htCents)),
      leaf('ram:TaxTotalAmount', decimalAmount(totals.vatCents), { currencyID: currency }),
      leaf('ram:GrandTotalAmount', decimalAmount(totals.ttcCents)),
      leaf('ram:TotalPrepaidAmount', decimalAmount(prepaidCents)),
      leaf('ram:DuePayableAmount', decimalAmount(totals.ttcCents - prepaidCents)),
    ]),
    corrects !== undefined &&
      branch('ram:InvoiceReferencedDocument', [
        leaf('ram:IssuerAssignedID', corrects.number),
        branch('ram:FormattedIssueDateTime', [dateTime(corrects.date, 'qdt')]),
      ]),
  ]);
};

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

/**
 * What the customer has paid towards the invoice (BT-113): the payment the sale recorded as made (a
 * refunded payment was made too: its refund is a credit note's), at most the invoice's total, since
 * the rest of it was for lines cancelled before invoicing and is refunded.
 */
const prepaidCents = (invoice: InvoiceData): number => {
  const { payment, totals } = invoice;
  if (payment === null || (payment.status !== 'paid' && payment.status !== 'refunded')) return 0;
  return Math.min(payment.amountPaidCents ?? totals.ttcCents, totals.ttcCents);
};

export const invoiceCrossIndustryXml = (invoice: InvoiceData, options: FacturXOptions = {}): string => {
  const figures = invoiceNetFigures(invoice);
  const prepaid = prepaidCents(invoice);
  const cancelled = invoice.lines.filter((line) => line.cancelled).map((line) => line.sku);
  const notes: Note[] = [
    ...(invoice.cancelledOn === null ? [] : [{ content: `Commande annulée le ${formatDate(invoice.cancelledOn)}` }]),
    ...(cancelled.length === 0 ? [] : [{ content: `Articles annulés, non facturés : ${cancelled.join(', ')}` }]),
    ...paymentNotes(invoice.seller),
  ];
  return crossIndustryInvoice(documentContext(options.category), exchangedDocument(invoice.number, '380', invoice.date, notes), {
    lines: figures.lines,
    agreement: [sellerParty(invoice.seller), buyerParty(invoice.customer, invoice.billingAddress, options.buyer), orderReference(invoice.incrementId)],
    delivery: [shipToParty(invoice.shippingAddress)],
    settlement: settlement({
      currency: invoice.currency,
      figures,
      totals: invoice.totals,
      prepaidCents: prepaid,
      paymentTerms: invoice.seller.paymentTerms,
      vatOnDebits: options.vatOnDebits ?? false,
    }),
  });
};

/** A credit note (type 381) names the invoice it corrects; its amounts, positive, are owed to the customer. */
export const creditNoteCrossIndustryXml = (creditNote: CreditNoteData, options: FacturXOptions = {}): string => {
  const figures = creditNoteNetFigures(creditNote);
  return crossIndustryInvoice(
    documentContext(options.category),
    exchangedDocument(creditNote.number, '381', creditNote.date, paymentNotes(creditNote.seller)),
    {
      lines: figures.lines,
      agreement: [
        sellerParty(creditNote.seller),
        buyerParty(creditNote.customer, creditNote.billingAddress, options.buyer),
        orderReference(creditNote.incrementId),
      ],
      delivery: [],
      settlement: settlement({
        currency: creditNote.currency,
        figures,
        totals: creditNote.totals,
        prepaidCents: 0,
        paymentTerms: creditNote.seller.paymentTerms,
        vatOnDebits: options.vatOnDebits ?? false,
        corrects: creditNote.invoice,
      }),
    },
  );
};
