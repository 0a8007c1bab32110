import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemContext } from '../../../../src/events/command-context.ts';
import { cancelSale } from '../../../../src/events/sales/cancel-sale.ts';
import { pdfText } from '../../../labels/pdf-tools.ts';
import { importOrder, order, startSaleActionsApi, type ImportedOrder, type SaleActionsApi } from '../sale-actions/sale-actions-api.ts';
import { getDocument, numberOf } from './invoice-support.ts';

/**
 * A cancellation after invoicing issues a credit note AV-<year>-<n>, from its own continuous sequence,
 * recorded as an event and naming the invoice, which never changes.
 */
describe('credit notes', () => {
  let api: SaleActionsApi;
  let sale: ImportedOrder;
  beforeEach(async () => {
    api = await startSaleActionsApi();
    // A delivery fee: a cancellation refunds the products, never the delivery.
    sale = await importOrder(api, order({ shipping_amount: 49.9, grand_total: 1457.7, payment: { method: 'card', status: 'paid', amount_paid: 1457.7 } }));
  });
  afterEach(async () => api.close());

  const invoice = () => getDocument(api, `/api/sale-invoice/${api.mint('invoice', sale.saleId)}`, api.token);
  const creditNote = (number: string, saleId = sale.saleId) => getDocument(api, `/api/sale-credit-note/${api.mint('invoice', saleId)}/${number}`, api.token);
  const cancel = (productIds?: number[]) => api.post(`/api/sale-cancel/${api.mint('cancel', sale.saleId, productIds ? { productIds } : {})}`);
  const register = async (name: string) => (await api.stream(name)).map((event) => event.data);

  it('when a product is cancelled after invoicing, a credit note credits it at its invoiced amount and rate, and the invoice stays byte for byte', async () => {
    const issued = await invoice();
    expect(issued.status).toBe(200);
    const invoiceNumber = numberOf(issued);
    api.advance(2 * 86_400);

    const cancelled = await cancel([sale.lamp]);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.credit_note).toEqual({ number: 'AV-2026-1', invoice_number: invoiceNumber, amount: 259.8 });
    expect(await register('credit_notes-2026')).toMatchObject([
      { number: 'AV-2026-1', sequence: 1, saleId: sale.saleId, invoiceNumber, saleProductIds: [sale.lamp] },
    ]);

    const response = await creditNote('AV-2026-1');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toBe('inline; filename="AV-2026-1.pdf"');
    expect(response.headers['cache-control']).toBe('private, no-store');
    const text = await pdfText(response.body as Buffer);
    expect(text).toContain('AVOIR');
    expect(text).toContain('N° AV-2026-1');
    expect(text).toContain('Date : 07/10/2026');
    expect(text).toContain(`Facture rectifiée : ${invoiceNumber} du 05/10/2026`);
    expect(text).toContain('Commande n° 100004512 du 02/10/2026');
    expect(text).toContain('LAMP-ARC-BLK Lampadaire arc noir');
    expect(text).toContain('2 108,25 € 129,90 € 20 % 259,80 € Annulé le 07/10/2026');
    expect(text).toContain('20 % 216,50 € 43,30 € 259,80 €');
    expect(text).toContain('Total TTC 259,80 €');
    expect(text).not.toContain('Frais de livraison');
    expect(text).toContain('N° TVA intracommunautaire');
    expect(text).toContain('40 €');

    const again = await invoice();
    expect(numberOf(again)).toBe(invoiceNumber);
    expect((again.body as Buffer).equals(issued.body as Buffer)).toBe(true);
    expect(await register('invoices-2026')).toHaveLength(1);
  });

  it('when the rest of the sale is cancelled later, a second credit note credits only what the first did not; cancelling again credits nothing', async () => {
    const issued = await invoice();
    expect((await cancel([sale.lamp])).body.credit_note).toMatchObject({ number: 'AV-2026-1', amount: 259.8 });
    const rest = await cancel();
    expect(rest.body).toMatchObject({ status: 'cancelled', sale_cancelled: true, credit_note: { number: 'AV-2026-2', amount: 1148 } });
    const text = await pdfText((await creditNote('AV-2026-2')).body as Buffer);
    expect(text).toContain('CAN-OSLO-3P-GRY');
    expect(text).toContain('TAB-NORD-180');
    expect(text).not.toContain('LAMP-ARC-BLK');
    expect(text).toContain('Total TTC 1 148,00 €');

    const unchanged = await cancel();
    expect(unchanged.body).toMatchObject({ status: 'unchanged', credit_note: null });
    // Asking for the documents issues nothing more either, and the invoice is the one first issued.
    const again = await invoice();
    expect([again.status, (again.body as Buffer).equals(issued.body as Buffer)]).toEqual([200, true]);
    expect((await register('credit_notes-2026')).map((event) => event.number)).toEqual(['AV-2026-1', 'AV-2026-2']);
  });

  it('when products are cancelled before the invoice is first asked for, no credit note is due: the invoice never charged them', async () => {
    expect((await cancel([sale.lamp])).body.credit_note).toBeNull();
    const text = await pdfText((await invoice()).body as Buffer);
    expect(text).toContain('Article annulé, non facturé');
    expect(await register('credit_notes-2026')).toEqual([]);
  });

  it('when a cancellation was recorded without its credit note (interrupted), asking for the invoice issues the credit note due', async () => {
    const issued = await invoice();
    // The command alone, as a process stopped right after recording the cancellation would leave it.
    await cancelSale(api.runtime.salesDeps, { incrementId: sale.incrementId, saleProductIds: [sale.table], reason: 'Annulation client' }, systemContext());
    expect(await register('credit_notes-2026')).toEqual([]);

    const again = await invoice();
    expect((again.body as Buffer).equals(issued.body as Buffer)).toBe(true);
    expect(await register('credit_notes-2026')).toMatchObject([{ number: 'AV-2026-1', saleProductIds: [sale.table] }]);
    const credited = await creditNote('AV-2026-1');
    expect(credited.status).toBe(200);
    const text = await pdfText(credited.body as Buffer);
    expect(text).toContain('N° AV-2026-1');
    expect(text).toContain('TAB-NORD-180');
    expect(text).not.toContain('LAMP-ARC-BLK');
  });

  it("when the number is not one of the sale's credit notes, it answers 404; when it is not a credit note number, 400 naming the field", async () => {
    await invoice();
    await cancel([sale.lamp]);
    const other = await importOrder(api, order({ increment_id: '100004513' }));
    const notTheirs = await creditNote('AV-2026-1', other.saleId);
    expect(notTheirs.status).toBe(404);
    expect(JSON.parse((notTheirs.body as Buffer).toString('utf8'))).toEqual({
      success: false,
      error: 'credit_note_not_found',
      message: `The sale ${other.saleId} has no credit note AV-2026-1`,
    });
    const malformed = await creditNote('FA-2026-1');
    expect(malformed.status).toBe(400);
    expect(JSON.parse((malformed.body as Buffer).toString('utf8'))).toMatchObject({
      success: false,
      error: 'invalid_request',
      message: expect.stringMatching(/^number: /),
    });
  });
});
