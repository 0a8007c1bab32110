import type { CreditNoteData, InvoiceData } from '../../events/invoicing/documents.ts';
import type { VatLine } from '../../events/invoicing/vat.ts';
import { categoryCode, categoryTax, dateTime, decimalAmount, percent } from './cii-values.ts';
import type { NetFigures, RoundingAdjustment } from './net-lines.ts';
import { branch, leaf } from './xml-elements.ts';

/** The settlement of a Cross Industry Invoice (BG-22 totals, BG-23 VAT breakdown, BG-20/21 roundings, BG-3). */

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

export type Settlement = {
  currency: string;
  figures: NetFigures;
  totals: InvoiceData['totals'];
  prepaidCents: number;
  paymentTerms: string;
  vatOnDebits: boolean;
  /** A credit note's: the invoice it corrects (BG-3). */
  corrects?: CreditNoteData['invoice'];
};

export const settlement = ({ currency, figures, totals, prepaidCents, paymentTerms, vatOnDebits, corrects }: Settlement): string => {
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

/**
 * What the customer has paid towards the invoice (BT-113): the payment the sale recorded as made (a
 * refunded payment was made too: its refund is a credit note's), at most the invoice's total, since
 * the rest of it was for lines cancelled before invoicing and is refunded.
 */
export const prepaidCents = (invoice: InvoiceData): number => {
  const { payment, totals } = invoice;
  if (payment === null || (payment.status !== 'paid' && payment.status !== 'refunded')) return 0;
  return Math.min(payment.amountPaidCents ?? totals.ttcCents, totals.ttcCents);
};
