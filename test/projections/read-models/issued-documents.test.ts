import { describe, expect, it } from 'vitest';
import { issuedDocumentsProjection } from '../../../src/projections/invoicing/issued-documents-projection.ts';
import { findIssuedForSales, findSaleCreditNote, findSaleCreditNotes, findSaleInvoice } from '../../../src/projections/invoicing/queries.ts';
import { openTestReadStore } from '../../support/mongo-backend.ts';
import { project } from './project.ts';
import { buildScenario, mainSale } from './scenario.ts';

/** The `issued_documents` read model: each invoice and credit note as issued, found by sale and by number. */
describe('issued documents read model', () => {
  const given = async () => {
    const store = await openTestReadStore();
    await project(store, [issuedDocumentsProjection], buildScenario().events);
    return store;
  };

  it("when a sale has an invoice and a credit note, its invoice is found by sale with what it prints, the credit note by the sale's number", async () => {
    const store = await given();
    const invoice = await findSaleInvoice(store, mainSale.saleId);
    expect(invoice).toMatchObject({ _id: 'FA-2025-1', kind: 'invoice', year: 2025, sequence: 1, saleId: mainSale.saleId, issuedAt: '2025-03-11T09:00:00Z' });
    expect(invoice?.invoice.totals).toEqual({ htCents: 117_317, vatCents: 23_463, ttcCents: 140_780 });
    expect(await findSaleCreditNotes(store, mainSale.saleId)).toMatchObject([{ _id: 'AV-2025-1', invoiceNumber: 'FA-2025-1', saleProductIds: [103] }]);
    expect((await findSaleCreditNote(store, mainSale.saleId, 'AV-2025-1'))?.creditNote.totals.ttcCents).toBe(25_980);
  });

  it("when asked for another sale's number, or a sale without documents, nothing is found", async () => {
    const store = await given();
    expect(await findSaleCreditNote(store, mainSale.saleId + 1, 'AV-2025-1')).toBeNull();
    expect(await findSaleCreditNote(store, mainSale.saleId, 'FA-2025-1')).toBeNull();
    expect(await findSaleInvoice(store, mainSale.saleId + 1)).toBeNull();
    expect(await findIssuedForSales(store, [mainSale.saleId + 1], 'invoice')).toEqual([]);
  });
});
