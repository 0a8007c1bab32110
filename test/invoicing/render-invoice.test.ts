import { describe, expect, it } from 'vitest';
import { invoiceData } from '../../src/invoicing/invoice-data.ts';
import { renderInvoicePdf } from '../../src/invoicing/render-invoice.ts';
import { pdfPageCount, pdfText } from '../labels/pdf-tools.ts';
import { pdfCreationDate } from './pdf-creation-date.ts';
import { aProduct, aSale, aSaleWithCancelledLamp, anIssue, invoiceOptions } from './invoice-fixtures.ts';

const billing = {
  firstname: 'Claire',
  lastname: 'Martin',
  company: 'Atelier Martin',
  street: ['3 place Bellecour'],
  postcode: '69002',
  city: 'Lyon',
  country_id: 'FR',
};

describe('a rendered invoice', () => {
  it('when read back, it names the seller, the customer, both addresses, the invoice number and date, and the order', async () => {
    const text = await pdfText(await renderInvoicePdf(invoiceData(aSale({ billingAddress: billing }), anIssue, invoiceOptions())));
    expect(text).toContain('Maison & Confort');
    expect(text).toContain('12 avenue des Entrepôts 69200 Vénissieux');
    expect(text).toContain('FACTURE');
    expect(text).toContain('N° FA-2026-1');
    expect(text).toContain('Date : 05/10/2026');
    expect(text).toContain('Commande n° 100004512 du 02/10/2026');
    expect(text).toContain('Claire Martin');
    expect(text).toContain('claire.martin@example.org');
    expect(text).toContain('ADRESSE DE FACTURATION');
    expect(text).toContain('Atelier Martin');
    expect(text).toContain('3 place Bellecour');
    expect(text).toContain('ADRESSE DE LIVRAISON');
    expect(text).toContain('12 rue des Lilas');
  });

  it('when read back, each line has its SKU, name, quantity, unit price and total, and the VAT and totals follow', async () => {
    const text = await pdfText(await renderInvoicePdf(invoiceData(aSale(), anIssue, invoiceOptions())));
    expect(text).toContain('CAN-OSLO-3P-GRY Canapé 3 places Oslo gris 1 540,83 € 649,00 € 20 % 649,00 €');
    expect(text).toContain('TAB-NORD-180 Table à manger Nord 180 cm 1 415,83 € 499,00 € 20 % 499,00 €');
    expect(text).toContain('LAMP-ARC-BLK Lampadaire arc noir 2 108,25 € 129,90 € 20 % 259,80 €');
    expect(text).toContain('20 % 1 173,17 € 234,63 € 1 407,80 €');
    expect(text).toContain('Total HT 1 173,17 €');
    expect(text).toContain('Total TVA 234,63 €');
    expect(text).toContain('Total TTC 1 407,80 €');
    expect(text).toContain('Mode : Carte bancaire');
    expect(text).toContain('Statut : Payé');
    expect(text).toContain('Montant payé : 1 407,80 €');
  });

  it('when a line was cancelled and refunded and there is a shipping fee, the line is marked, the fee is a line, and the refund is listed', async () => {
    const text = await pdfText(await renderInvoicePdf(invoiceData({ ...aSaleWithCancelledLamp(), shippingAmount: 49.9 }, anIssue, invoiceOptions())));
    expect(text).toContain('LAMP-ARC-BLK Lampadaire arc noir 2 108,25 € 129,90 € 20 % Annulé');
    expect(text).toContain('Article annulé, non facturé');
    expect(text).toContain('Frais de livraison');
    expect(text).toContain('1 41,58 € 49,90 € 20 % 49,90 €');
    expect(text).toContain('Total TTC 1 197,90 €');
    expect(text).toContain('REMBOURSEMENTS');
    expect(text).toContain('7 05/10/2026 LAMP-ARC-BLK 259,80 € Versé le 06/10/2026');
  });

  it('when the same issued invoice is rendered twice, the bytes are the same, dated by its issue; another invoice gives other bytes', async () => {
    const first = await renderInvoicePdf(invoiceData(aSale(), anIssue, invoiceOptions()));
    const again = await renderInvoicePdf(invoiceData(aSale(), anIssue, invoiceOptions()));
    expect(again.equals(first)).toBe(true);
    expect(await pdfCreationDate(first)).toBe('2026-10-05T08:00:00Z');
    const cancelled = await renderInvoicePdf(invoiceData(aSaleWithCancelledLamp(), anIssue, invoiceOptions()));
    expect(cancelled.equals(first)).toBe(false);
  });

  it('when an order has as many lines as an import allows, the invoice runs over several pages and still ends with its totals', async () => {
    const products = Array.from({ length: 200 }, (_, index) =>
      aProduct({ saleProductId: index + 1, sku: `SKU-${String(index + 1).padStart(3, '0')}`, price: 10 }),
    );
    const pdf = await renderInvoicePdf(invoiceData(aSale({ products }), anIssue, invoiceOptions()));
    expect(await pdfPageCount(pdf)).toBeGreaterThan(1);
    const text = await pdfText(pdf);
    expect(text).toContain('SKU-200 Article SKU-200 1 8,33 € 10,00 €');
    expect(text).toContain('Total TTC 2 000,00 €');
  });
});
