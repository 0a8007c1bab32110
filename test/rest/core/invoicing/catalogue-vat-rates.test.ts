import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogProducts } from '../../../../src/events/catalog/catalog-handlers.ts';
import { systemContext } from '../../../../src/events/command-context.ts';
import { importSale } from '../../../../src/events/sales/import-sale.ts';
import { startApi, type ApiHarness } from '../../../support/api-harness.ts';
import { pdfText } from '../../../labels/pdf-tools.ts';
import { anOrder, getDocument, mint } from './invoice-support.ts';

/**
 * The VAT rate of an invoice line is the catalogue's for its product when the invoice is issued: a
 * product catalogued before the catalogue had rates is at the standard 20 %, as it was invoiced then;
 * a rate changed later applies to the invoices issued later, never to one already issued.
 */

const book = { sku: 'LIV-JARDIN-02', name: 'Livre de jardinage', price: 21.1 };
const bookLine = [{ sku: book.sku, name: book.name, qty_ordered: 1, price: book.price, supplier: null }];

describe('the VAT rates of the catalogue on the invoices', () => {
  let api: ApiHarness;
  let coreToken: string;
  const invoiceText = async (saleId: number): Promise<string> => {
    const response = await getDocument(api, `/api/sale-invoice/${mint(api, saleId)}`, coreToken);
    expect(response.status).toBe(200);
    return pdfText(response.body as Buffer);
  };
  const productEvents = async () => (await api.runtime.eventStore.readStream(`product-${book.sku}`)).map(({ type, data }) => ({ type, data }));

  beforeAll(async () => {
    api = await startApi({ clock: { now: () => new Date('2026-10-05T08:00:00.000Z') } });
    coreToken = await api.tokenFor('core');
    // As a version of the service without VAT rates recorded it: schema version 2, no vat_rate.
    await api.runtime.eventStore.appendToStream(`product-${book.sku}`, [
      {
        id: randomUUID(),
        type: 'ProductCatalogued',
        data: {
          product: {
            ...book,
            ean14: null,
            description: null,
            wholesale_price: null,
            availability: null,
            stock_qty: null,
            images: [],
            supplier: null,
            carrier: null,
            weight_kg: null,
            package_count: null,
          },
          cataloguedAt: '2026-01-10T08:00:00.000Z',
        },
        metadata: {
          actor: { kind: 'system' },
          correlationId: randomUUID(),
          causationId: randomUUID(),
          occurredAt: '2026-01-10T08:00:00.000Z',
          schemaVersion: 2,
        },
      },
    ]);
  });
  afterAll(async () => api.close());

  it('when a product was catalogued before rates existed, it is invoiced at 20 %, and importing it again without a rate records nothing', async () => {
    const { saleId } = await importSale(api.runtime.salesDeps, { ...anOrder(bookLine), shipping_amount: 0 }, systemContext());
    expect(await invoiceText(saleId)).toContain('1 17,58 € 21,10 € 20 % 21,10 €');
    expect(await catalogProducts(api.runtime.write, [book], systemContext())).toEqual({ created: 0, updated: 0, unchanged: 1 });
  });

  it('when its rate becomes 5.5 %, the change is recorded, the next invoice is at 5,5 % and the one issued before stays at 20 %', async () => {
    const { saleId: before } = await importSale(api.runtime.salesDeps, { ...anOrder(bookLine), shipping_amount: 0 }, systemContext());
    const issuedBefore = await invoiceText(before);
    expect(await catalogProducts(api.runtime.write, [{ ...book, vat_rate: 5.5 }], systemContext())).toEqual({ created: 0, updated: 1, unchanged: 0 });
    expect((await productEvents()).at(-1)).toMatchObject({ type: 'ProductUpdated', data: { changes: { vat_rate: 5.5 } } });

    const { saleId: after } = await importSale(api.runtime.salesDeps, { ...anOrder(bookLine), shipping_amount: 0 }, systemContext());
    const text = await invoiceText(after);
    expect(text).toContain('1 20,00 € 21,10 € 5,5 % 21,10 €');
    expect(text).toContain('5,5 % 20,00 € 1,10 € 21,10 €');
    expect(await invoiceText(before)).toBe(issuedBefore);
    expect(issuedBefore).toContain('20 % 21,10 €');
  });
});
