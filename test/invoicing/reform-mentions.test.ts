import { beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.ts';
import { creditNoteData, linesToCredit } from '../../src/invoicing/credit-note-data.ts';
import { invoiceData, type InvoiceData } from '../../src/invoicing/invoice-data.ts';
import { renderCreditNotePdf, renderInvoicePdf } from '../../src/invoicing/render-invoice.ts';
import { pdfText } from '../labels/pdf-tools.ts';
import { aSale, aSaleWithCancelledLamp, anIssue, invoiceOptions } from './invoice-fixtures.ts';

/**
 * The mentions the 2026 reform adds to every invoice and credit note (CGI annexe II art. 242 nonies A),
 * read back as a person would read them: the business customer's SIREN, the delivery address when it
 * differs from the billing address, the category of the operations, and the option for VAT on debits
 * when the seller's configuration says it was taken.
 */

// A fictitious company: SIREN 443 061 841, valid in form.
const atelier = { companyName: 'Atelier Martin SARL', siren: '443061841', siret: '44306184100013', vatNumber: 'FR64443061841' };
const bellecour = {
  firstname: 'Claire',
  lastname: 'Martin',
  company: 'Atelier Martin SARL',
  street: ['3 place Bellecour'],
  postcode: '69002',
  city: 'Lyon',
  country_id: 'FR',
};
const creditNoteIssue = { number: 'AV-2026-1', issuedAt: '2026-10-06T08:00:00.000Z', issuedOn: '2026-10-06' };
const services = new Map([['LAMP-ARC-BLK', 'services' as const]]);

const creditNoteOf = (invoice: InvoiceData) =>
  creditNoteData(invoice, linesToCredit(invoice, aSaleWithCancelledLamp(), [], 'Europe/Paris'), creditNoteIssue, invoice.seller);

describe('the mentions of the 2026 reform on a business customer’s invoice and credit note', () => {
  let invoice: InvoiceData;
  let invoiceText: string;
  let creditNoteText: string;

  beforeAll(async () => {
    // The lamp is a service here (its fitting, say), so that the invoice is mixed and its credit note, crediting the lamp, services.
    invoice = invoiceData(aSale({ businessCustomer: atelier, billingAddress: bellecour }), anIssue, invoiceOptions({ operationCategories: services }));
    [invoiceText, creditNoteText] = await Promise.all([pdfText(await renderInvoicePdf(invoice)), pdfText(await renderCreditNotePdf(creditNoteOf(invoice)))]);
  });

  it('when read back, the invoice names the company with its SIREN, SIRET and VAT number, then the person', () => {
    expect(invoiceText).toContain(
      'CLIENT Atelier Martin SARL SIREN 443 061 841 — SIRET 443 061 841 00013 N° TVA intracommunautaire : FR64443061841 Claire Martin',
    );
  });

  it('when read back, the invoice gives the delivery address beside the billing address, the goods going elsewhere', () => {
    expect(invoiceText).toContain('ADRESSE DE FACTURATION');
    expect(invoiceText).toContain('3 place Bellecour');
    expect(invoiceText).toContain('ADRESSE DE LIVRAISON');
    expect(invoiceText).toContain('12 rue des Lilas');
  });

  it('when read back, the invoice of goods and a service states a mixed operation', () => {
    expect(invoice.operationCategory).toBe('mixed');
    expect(invoiceText).toContain('Catégorie de l’opération : opération mixte (livraison de biens et prestation de services)');
  });

  it('when read back, the credit note names the company with its SIREN, the delivery address, and the category of what it credits', () => {
    expect(creditNoteText).toContain(
      'CLIENT Atelier Martin SARL SIREN 443 061 841 — SIRET 443 061 841 00013 N° TVA intracommunautaire : FR64443061841 Claire Martin',
    );
    expect(creditNoteText).toContain('ADRESSE DE LIVRAISON');
    expect(creditNoteText).toContain('12 rue des Lilas');
    expect(creditNoteText).toContain('Catégorie de l’opération : prestation de services');
  });

  it('when the seller did not take the option for VAT on debits (the default), neither document mentions it', () => {
    expect(invoice.seller.vatOnDebits).toBe(false);
    expect(invoiceText).not.toContain('débits');
    expect(creditNoteText).not.toContain('débits');
  });
});

describe('the mentions of the 2026 reform on a consumer’s invoice', () => {
  it('when read back, it names no SIREN, gives one address when the goods go where the bill goes, and states a delivery of goods', async () => {
    const text = await pdfText(await renderInvoicePdf(invoiceData(aSale(), anIssue, invoiceOptions())));
    expect(text).toContain('CLIENT Claire Martin claire.martin@example.org');
    expect(text).not.toContain('SIREN');
    expect(text).toContain('ADRESSE DE FACTURATION');
    expect(text).not.toContain('ADRESSE DE LIVRAISON');
    expect(text).toContain('Catégorie de l’opération : livraison de biens');
  });

  it('when the billing address names someone else at the same place, the delivery address is not repeated', async () => {
    const sale = aSale();
    const samePlace = { ...sale.shippingAddress, firstname: 'Paul', company: 'Atelier Martin SARL' };
    const text = await pdfText(await renderInvoicePdf(invoiceData(aSale({ billingAddress: samePlace }), anIssue, invoiceOptions())));
    expect(text).toContain('Paul Martin Atelier Martin SARL 12 rue des Lilas');
    expect(text).not.toContain('ADRESSE DE LIVRAISON');
  });

  it('when issued before the reform, with none of its fields, it prints as it did: no category, the delivery address beside the billing one', async () => {
    const { operationCategory: _category, ...before } = invoiceData(aSale(), anIssue, invoiceOptions());
    const text = await pdfText(await renderInvoicePdf({ ...before, lines: before.lines.map(({ operationCategory: _line, ...line }) => line) }));
    expect(text).not.toContain('Catégorie de l’opération');
    expect(text).toContain('ADRESSE DE FACTURATION');
  });
});

describe('the option for VAT on debits', () => {
  it('when SELLER_VAT_ON_DEBITS says it was taken, the invoice and its credit note say so; a sale of services only states services', async () => {
    const { seller } = loadConfig({ SELLER_VAT_ON_DEBITS: 'true' });
    const onlyServices = new Map(aSale().products.map((product) => [product.sku, 'services' as const]));
    const invoice = invoiceData(aSale(), anIssue, invoiceOptions({ seller, operationCategories: onlyServices }));
    const [invoiceText, creditNoteText] = await Promise.all([
      pdfText(await renderInvoicePdf(invoice)),
      pdfText(await renderCreditNotePdf(creditNoteOf(invoice))),
    ]);
    for (const text of [invoiceText, creditNoteText]) {
      expect(text).toContain('Option pour le paiement de la taxe d’après les débits');
      expect(text).toContain('Catégorie de l’opération : prestation de services');
    }
  });
});
