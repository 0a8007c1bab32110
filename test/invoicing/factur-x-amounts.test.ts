import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { XmlDocument, type XmlElement } from 'xmldoc';
import { invoiceData } from '../../src/invoicing/invoice-data.ts';
import { renderInvoicePdf } from '../../src/invoicing/render-invoice.ts';
import { createLogger } from '../../src/logger.ts';
import { createPdfPool } from '../../src/pdf/pdf-pool.ts';
import { pdfText } from '../labels/pdf-tools.ts';
import { renderSamples, type Sample } from './factur-x-samples.ts';
import { aSale, anIssue, invoiceOptions } from './invoice-fixtures.ts';

/**
 * The XML a Factur-X PDF carries (read back with pdfdetach) says what its page says (read back with
 * pdftotext): the same number and date, and amounts that, added up again as EN 16931 adds them,
 * give the page's base, VAT and total of each rate and overall, to the cent.
 */

const run = promisify(execFile);

const attachedXml = async (pdf: Buffer): Promise<XmlDocument> => {
  const folder = await mkdtemp(path.join(tmpdir(), 'factur-x-xml-'));
  try {
    await writeFile(path.join(folder, 'document.pdf'), pdf);
    await run('pdfdetach', ['-savefile', 'factur-x.xml', '-o', path.join(folder, 'factur-x.xml'), path.join(folder, 'document.pdf')]);
    return new XmlDocument(await readFile(path.join(folder, 'factur-x.xml'), 'utf8'));
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
};

/** "1310.26" as 131026 cents, exactly. */
const xmlCents = (amount: string | undefined): number => {
  const match = /^(-?)(\d+)\.(\d{2})$/.exec(amount ?? '');
  if (!match) throw new Error(`not an amount with two decimals: ${amount}`);
  return (match[1] ? -1 : 1) * (Number(match[2]) * 100 + Number(match[3]));
};

/** "1 310,26" (a page's amount, spaces folded) as 131026 cents. */
const pageCents = (amount: string): number => Number(amount.replace(/[\s,]/g, ''));

const money = String.raw`(\d{1,3}(?: \d{3})*,\d{2}) €`;

const pageFigures = (text: string) => {
  // The last: "Total TTC" also heads the lines' table.
  const total = (label: string): number => pageCents([...text.matchAll(new RegExp(`${label} ${money}`, 'g'))].at(-1)?.[1] ?? 'missing');
  const vatTable = text.slice(text.indexOf('DÉTAIL DE LA TVA'), text.indexOf('Total HT'));
  const vat = [...vatTable.matchAll(new RegExp(String.raw`(\d+(?:,\d+)?) % ${money} ${money} ${money}`, 'g'))].map((row) => ({
    rate: row[1]!.replace(',', '.'),
    htCents: pageCents(row[2]!),
    vatCents: pageCents(row[3]!),
    ttcCents: pageCents(row[4]!),
  }));
  return { ht: total('Total HT'), vat: total('Total TVA'), ttc: total('Total TTC'), rates: vat };
};

const valueAt = (element: XmlElement, names: string): string | undefined => element.valueWithPath(names);

/** The rate of an ApplicableTradeTax or CategoryTradeTax as the page prints it: "20", "5.5", "2.1". */
const rateOf = (tax: XmlElement | undefined): string => String(Number(tax?.valueWithPath('ram:RateApplicablePercent')));

const xmlFigures = (xml: XmlDocument) => {
  const transaction = xml.childNamed('rsm:SupplyChainTradeTransaction')!;
  const settlement = transaction.childNamed('ram:ApplicableHeaderTradeSettlement')!;
  const summation = settlement.childNamed('ram:SpecifiedTradeSettlementHeaderMonetarySummation')!;
  const lines = transaction.childrenNamed('ram:IncludedSupplyChainTradeLineItem').map((item) => ({
    rate: rateOf(item.descendantWithPath('ram:SpecifiedLineTradeSettlement.ram:ApplicableTradeTax')),
    qty: Number(valueAt(item, 'ram:SpecifiedLineTradeDelivery.ram:BilledQuantity')),
    priceCents: xmlCents(valueAt(item, 'ram:SpecifiedLineTradeAgreement.ram:NetPriceProductTradePrice.ram:ChargeAmount')),
    netCents: xmlCents(valueAt(item, 'ram:SpecifiedLineTradeSettlement.ram:SpecifiedTradeSettlementLineMonetarySummation.ram:LineTotalAmount')),
  }));
  const adjustments = settlement.childrenNamed('ram:SpecifiedTradeAllowanceCharge').map((charge) => ({
    rate: rateOf(charge.childNamed('ram:CategoryTradeTax')),
    cents: (valueAt(charge, 'ram:ChargeIndicator.udt:Indicator') === 'true' ? 1 : -1) * xmlCents(valueAt(charge, 'ram:ActualAmount')),
  }));
  const breakdown = settlement.childrenNamed('ram:ApplicableTradeTax').map((tax) => ({
    rate: rateOf(tax),
    htCents: xmlCents(valueAt(tax, 'ram:BasisAmount')),
    vatCents: xmlCents(valueAt(tax, 'ram:CalculatedAmount')),
  }));
  const amount = (name: string): number => (summation.childNamed(name) ? xmlCents(summation.valueWithPath(name)) : 0);
  return {
    lines,
    adjustments,
    breakdown,
    lineTotal: amount('ram:LineTotalAmount'),
    charges: amount('ram:ChargeTotalAmount'),
    allowances: amount('ram:AllowanceTotalAmount'),
    taxBasis: amount('ram:TaxBasisTotalAmount'),
    taxTotal: amount('ram:TaxTotalAmount'),
    grandTotal: amount('ram:GrandTotalAmount'),
    prepaid: amount('ram:TotalPrepaidAmount'),
    due: amount('ram:DuePayableAmount'),
  };
};

const sum = (amounts: readonly number[]): number => amounts.reduce((total, cents) => total + cents, 0);

describe('the XML of a Factur-X document, against its page', () => {
  let samples: { sample: Sample; text: string; xml: XmlDocument }[];

  beforeAll(async () => {
    samples = await Promise.all(
      (await renderSamples()).map(async (sample) => ({ sample, text: await pdfText(sample.pdf), xml: await attachedXml(sample.pdf) })),
    );
  }, 60_000);

  it('when its amounts are added up again, each rate gives the base and VAT of the page, and the totals the page totals, to the cent', () => {
    for (const { sample, text, xml } of samples) {
      const page = pageFigures(text);
      const figures = xmlFigures(xml);
      const context = `${sample.name}: ${JSON.stringify({ page, figures })}`;
      for (const line of figures.lines) expect(line.netCents, context).toBe(line.qty * line.priceCents);
      // Rate by rate, the lines and the rounding at the rate give the base (BR-S-08); the base and the VAT are the page's.
      // A rate only lines counting for nothing are at has a zero base the page leaves out.
      expect(
        figures.breakdown.filter(({ htCents, vatCents }) => htCents + vatCents !== 0).map(({ rate, htCents, vatCents }) => ({ rate, htCents, vatCents })),
        context,
      ).toEqual(page.rates.map(({ rate, htCents, vatCents }) => ({ rate, htCents, vatCents })));
      for (const { rate, htCents } of figures.breakdown) {
        const atRate = sum(figures.lines.filter((line) => line.rate === rate).map((line) => line.netCents));
        const adjusted = sum(figures.adjustments.filter((adjustment) => adjustment.rate === rate).map((adjustment) => adjustment.cents));
        expect(atRate + adjusted, `${context} at ${rate} %`).toBe(htCents);
      }
      expect(figures.lineTotal, context).toBe(sum(figures.lines.map((line) => line.netCents)));
      expect(figures.charges - figures.allowances, context).toBe(sum(figures.adjustments.map((adjustment) => adjustment.cents)));
      expect(figures.lineTotal + figures.charges - figures.allowances, context).toBe(figures.taxBasis);
      expect(figures.taxBasis, context).toBe(page.ht);
      expect(figures.taxTotal, context).toBe(sum(figures.breakdown.map((tax) => tax.vatCents)));
      expect(figures.taxTotal, context).toBe(page.vat);
      expect(figures.grandTotal, context).toBe(figures.taxBasis + figures.taxTotal);
      expect(figures.grandTotal, context).toBe(page.ttc);
      expect(figures.due, context).toBe(figures.grandTotal - figures.prepaid);
    }
  });

  it('when the page names its number, date and parties, the XML names the same; a credit note is type 381 and names the invoice it corrects', () => {
    for (const { sample, text, xml } of samples) {
      const number = xml.valueWithPath('rsm:ExchangedDocument.ram:ID')!;
      const date = xml.valueWithPath('rsm:ExchangedDocument.ram:IssueDateTime.udt:DateTimeString')!;
      expect(text).toContain(`N° ${number}`);
      expect(text).toContain(`Date : ${date.slice(6, 8)}/${date.slice(4, 6)}/${date.slice(0, 4)}`);
      const agreement = xml.descendantWithPath('rsm:SupplyChainTradeTransaction.ram:ApplicableHeaderTradeAgreement')!;
      const seller = agreement.childNamed('ram:SellerTradeParty')!;
      expect(text).toContain(seller.valueWithPath('ram:Name')!);
      expect(text.replace(/(\d{3}) (\d{3}) (\d{3})/g, '$1$2$3')).toContain(`RCS Lyon ${seller.valueWithPath('ram:SpecifiedLegalOrganization.ram:ID')}`);
      expect(text).toContain(`N° TVA intracommunautaire : ${seller.valueWithPath('ram:SpecifiedTaxRegistration.ram:ID')}`);
      const buyerStreet = agreement.valueWithPath('ram:BuyerTradeParty.ram:PostalTradeAddress.ram:LineOne')!;
      expect(text).toContain(buyerStreet);
      const settlement = xml.descendantWithPath('rsm:SupplyChainTradeTransaction.ram:ApplicableHeaderTradeSettlement')!;
      if (sample.kind === 'invoice') {
        expect(xml.valueWithPath('rsm:ExchangedDocument.ram:TypeCode')).toBe('380');
        expect(text).toContain(
          xml.valueWithPath('rsm:SupplyChainTradeTransaction.ram:ApplicableHeaderTradeDelivery.ram:ShipToTradeParty.ram:PostalTradeAddress.ram:LineOne')!,
        );
      } else {
        expect(xml.valueWithPath('rsm:ExchangedDocument.ram:TypeCode')).toBe('381');
        const corrected = settlement.valueWithPath('ram:InvoiceReferencedDocument.ram:IssuerAssignedID')!;
        const correctedOn = settlement.valueWithPath('ram:InvoiceReferencedDocument.ram:FormattedIssueDateTime.qdt:DateTimeString')!;
        expect(text).toContain(`Facture rectifiée : ${corrected} du ${correctedOn.slice(6, 8)}/${correctedOn.slice(4, 6)}/${correctedOn.slice(0, 4)}`);
      }
    }
  });

  it('when the buyer is a business, the XML names it by its SIREN, SIRET and VAT number; a consumer by the customer', () => {
    const buyerOf = (name: string) =>
      samples
        .find(({ sample }) => sample.name === name)!
        .xml.descendantWithPath('rsm:SupplyChainTradeTransaction.ram:ApplicableHeaderTradeAgreement.ram:BuyerTradeParty')!;
    const business = buyerOf('business-invoice');
    expect(business.valueWithPath('ram:Name')).toBe('Atelier Martin SARL');
    expect(business.valueWithPath('ram:GlobalID')).toBe('84125000400014');
    expect(business.valueWithPath('ram:SpecifiedLegalOrganization.ram:ID')).toBe('841250004');
    expect(business.valueWithPath('ram:SpecifiedTaxRegistration.ram:ID')).toBe('FR47841250004');
    const consumer = buyerOf('consumer-invoice');
    expect(consumer.valueWithPath('ram:Name')).toBe('Claire Martin');
    expect(consumer.childNamed('ram:SpecifiedLegalOrganization')).toBeUndefined();
    expect(consumer.childNamed('ram:SpecifiedTaxRegistration')).toBeUndefined();
  });

  it('when a PDF worker renders an invoice, it is the same Factur-X, byte for byte, as rendered in process', async () => {
    const pool = createPdfPool({ threads: 1, maxQueue: 10, timeoutMs: 30_000, log: createLogger('silent') });
    try {
      const invoice = invoiceData(aSale(), anIssue, invoiceOptions());
      const fromWorker = await pool.render({ kind: 'invoice', data: invoice }, 'person');
      expect(Buffer.from(fromWorker).equals(await renderInvoicePdf(invoice))).toBe(true);
      expect((await attachedXml(Buffer.from(fromWorker))).valueWithPath('rsm:ExchangedDocument.ram:ID')).toBe('FA-2026-1');
    } finally {
      await pool.close();
    }
  });
});
