import { describe, expect, it } from 'vitest';
import { importSaleCommand, onceEachSku, type CatalogEntry, type OrderImportPayload } from '../../../src/events/sales/import-sale.ts';
import { address, at } from './sale-fixtures.ts';

type Item = OrderImportPayload['items'][number];

const order = (items: Item[], overrides: Partial<OrderImportPayload> = {}): OrderImportPayload => ({
  increment_id: '100004512',
  created_at: '2026-10-02T09:14:00+02:00',
  customer: { email: 'claire.martin@example.org', firstname: 'Claire', lastname: 'Martin' },
  shipping_address: address(),
  items,
  ...overrides,
});
const item = (overrides: Partial<Item> = {}): Item => ({ sku: 'TAB-NORD-180', name: 'Table à manger Nord 180 cm', qty_ordered: 1, price: 499, ...overrides });
const catalogued: CatalogEntry = { wholesale_price: 300, supplier: 'supplier-b', carrier: 'Geodis' };

const build = (payload: OrderImportPayload, catalog: (CatalogEntry | null)[]) =>
  importSaleCommand(payload, { saleId: 42, saleProductIds: payload.items.map((_, index) => 500 + index), catalog, at });
const onlyLine = (payload: OrderImportPayload, catalog: CatalogEntry | null) => build(payload, [catalog]).products[0];

describe('an order line imported into a sale', () => {
  it('when the line names its supplier, wholesale price and carrier, keeps them over the catalog', () => {
    const line = onlyLine(order([item({ supplier: 'supplier-a', wholesale_price: 280, carrier: 'DB Schenker' })]), catalogued);
    expect(line).toMatchObject({ supplier: 'supplier-a', wholesalePrice: 280, carrier: 'DB Schenker' });
  });

  it('when the line says null for its supplier, ships from own stock whatever the catalog says', () => {
    expect(onlyLine(order([item({ supplier: null })]), catalogued)?.supplier).toBeNull();
  });

  it('when the line leaves them out, takes the catalog supplier, wholesale price and carrier', () => {
    expect(onlyLine(order([item()]), catalogued)).toMatchObject({ supplier: 'supplier-b', wholesalePrice: 300, carrier: 'Geodis' });
  });

  it('when neither the line nor the catalog knows them, leaves them null', () => {
    expect(onlyLine(order([item()]), null)).toMatchObject({ supplier: null, wholesalePrice: null, carrier: null });
  });

  it('when the catalog knows the SKU without a supplier, leaves the supplier null', () => {
    expect(onlyLine(order([item()]), { wholesale_price: null, supplier: null, carrier: null })?.supplier).toBeNull();
  });

  it('when the line does not say, needs no appointment', () => {
    expect(onlyLine(order([item()]), null)?.requiresAppointment).toBe(false);
  });

  it('when tracking numbers are allocated, they go in order to the lines a supplier ships, the catalog telling which', () => {
    const payload = order([item({ supplier: null }), item({ supplier: 'supplier-a' }), item()]);
    const command = importSaleCommand(payload, {
      saleId: 42,
      saleProductIds: [500, 501, 502],
      catalog: [null, null, catalogued],
      trackingNumbers: ['MC0000000000018', 'MC0000000000026'],
      at,
    });
    expect(command.trackingNumbers).toEqual([
      { saleProductId: 501, trackingNumber: 'MC0000000000018' },
      { saleProductId: 502, trackingNumber: 'MC0000000000026' },
    ]);
  });

  it('when built, carries the line as the sale product with its allocated ID', () => {
    expect(onlyLine(order([item({ qty_ordered: 2, requires_appointment: true })]), null)).toEqual({
      saleProductId: 500,
      sku: 'TAB-NORD-180',
      name: 'Table à manger Nord 180 cm',
      qty: 2,
      price: 499,
      wholesalePrice: null,
      supplier: null,
      carrier: null,
      requiresAppointment: true,
    });
  });
});

describe('an order imported into a sale', () => {
  it('when source, currency, shipping and total are left out, defaults them, the total to the lines plus shipping', () => {
    const command = build(order([item({ qty_ordered: 2, price: 129.9 }), item({ price: 0.1 }), item({ price: 0.2 })]), [null, null, null]);
    expect(command).toMatchObject({ source: 'shopping-api', currency: 'EUR', shippingAmount: 0, grandTotal: 260.1 });
  });

  it('when shipping is charged and no total is given, adds it to the total', () => {
    const command = build(order([item({ price: 499 })], { shipping_amount: 49.9 }), [null]);
    expect(command).toMatchObject({ shippingAmount: 49.9, grandTotal: 548.9 });
  });

  it('when the order gives its own values, keeps them', () => {
    const command = build(
      order([item()], { source: 'marketplace-x', currency: 'CHF', shipping_amount: 10, grand_total: 450, billing_address: address({ city: 'Paris' }) }),
      [null],
    );
    expect(command).toMatchObject({
      source: 'marketplace-x',
      currency: 'CHF',
      shippingAmount: 10,
      grandTotal: 450,
      billingAddress: address({ city: 'Paris' }),
    });
  });

  it('when built, carries the order data, the sale ID and the payment as recorded', () => {
    const command = build(
      order([item()], {
        customer: { email: 'a@example.org', firstname: 'A', lastname: 'B', phone: '+33600000000' },
        payment: { method: 'card', status: 'paid' },
      }),
      [null],
    );
    expect(command).toMatchObject({
      saleId: 42,
      incrementId: '100004512',
      orderedAt: '2026-10-02T09:14:00+02:00',
      customer: { email: 'a@example.org', firstname: 'A', lastname: 'B', phone: '+33600000000' },
      billingAddress: null,
      payment: { method: 'card', status: 'paid', amountPaid: null },
      at,
    });
  });

  it('when the customer gives no phone and the order no payment, records them as null', () => {
    const command = build(order([item()]), [null]);
    expect(command.customer.phone).toBeNull();
    expect(command.payment).toBeNull();
  });
});

describe("a bulk import's catalog (onceEachSku)", () => {
  it('reads each SKU once, the orders after the first one getting the same entry', async () => {
    const asked: string[] = [];
    const findProduct = onceEachSku((sku) => {
      asked.push(sku);
      return sku === 'TAB-NORD-180' ? catalogued : null;
    });
    expect(await Promise.all([findProduct('TAB-NORD-180'), findProduct('TAB-NORD-180'), findProduct('UNKNOWN')])).toEqual([catalogued, catalogued, null]);
    expect(await findProduct('UNKNOWN')).toBeNull();
    expect(asked).toEqual(['TAB-NORD-180', 'UNKNOWN']);
  });

  it('asks again after a lookup that failed', async () => {
    let calls = 0;
    const findProduct = onceEachSku(async () => {
      calls += 1;
      if (calls === 1) throw new Error('store unavailable');
      return catalogued;
    });
    await expect(findProduct('TAB-NORD-180')).rejects.toThrow('store unavailable');
    expect(await findProduct('TAB-NORD-180')).toEqual(catalogued);
    expect(calls).toBe(2);
  });
});
