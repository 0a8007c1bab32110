import { describe, expect, it } from 'vitest';
import { catalogImportJsonSchema, orderImportJsonSchema } from '../../src/contracts/json-schemas.ts';
import { orderImportPayload } from '../../src/contracts/order-import.ts';
import { catalogImportFile } from '../../src/events/catalog/catalog-import.ts';
import { exampleCatalog, exampleOrder, jsonSchemaCheck, zodCheck, type Check } from '../support/contract-checks.ts';

/**
 * The import contracts' JSON Schemas are generated from the zod schemas that validate the imports: an
 * independent JSON Schema validator and zod must say the same of the same payloads. The rules JSON
 * Schema cannot state (refinements) are the one known difference, and the contracts' descriptions
 * state them instead.
 */

/** What each side says: undefined when it accepts, its first issue when it refuses. */
const verdicts = (checks: Record<'jsonSchema' | 'zod', Check>, value: unknown) => ({ jsonSchema: checks.jsonSchema(value), zod: checks.zod(value) });
const bothAccept = { jsonSchema: undefined, zod: undefined };
const bothRefuse = { jsonSchema: expect.any(String), zod: expect.any(String) };

describe('the order-import contract as JSON Schema', () => {
  const schema = orderImportJsonSchema();
  const checks = { jsonSchema: jsonSchemaCheck(schema), zod: zodCheck(orderImportPayload) };
  const spoiled = (spoil: (order: Record<string, any>) => void) => {
    const order = exampleOrder();
    spoil(order);
    return order;
  };

  it('when printed, it is a draft 2020-12 schema of one order that names its required fields', () => {
    expect(schema).toMatchObject({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      title: 'Order import',
      type: 'object',
      required: ['increment_id', 'created_at', 'customer', 'shipping_address', 'items'],
      additionalProperties: true,
    });
  });

  it('when the example order is checked, both accept it', () => {
    expect(verdicts(checks, exampleOrder())).toEqual(bothAccept);
  });

  it('when an order carries marketplace fields beyond the contract, at the top, in the customer and on a line, both accept it', () => {
    const order = spoiled((order) => {
      order.channel_ref = 'A-1';
      order.customer.loyalty_tier = 'gold';
      order.items[1].colour = 'oak';
    });
    expect(verdicts(checks, order)).toEqual(bothAccept);
  });

  it.each<[string, (order: Record<string, any>) => void]>([
    ['no increment_id', (order) => delete order.increment_id],
    ['letters in its increment_id', (order) => (order.increment_id = 'A100')],
    ['a creation instant without offset', (order) => (order.created_at = '2026-10-02T09:14:00')],
    ['a lower-case currency', (order) => (order.currency = 'eur')],
    ['an e-mail address without a domain', (order) => (order.customer.email = 'claire.martin')],
    ['no line', (order) => (order.items = [])],
    ['a line of 0 units', (order) => (order.items[0].qty_ordered = 0)],
    ['a line of 1.5 units', (order) => (order.items[0].qty_ordered = 1.5)],
    ['an unknown supplier on a line', (order) => (order.items[0].supplier = 'supplier-c')],
    ['an unknown payment status', (order) => (order.payment.status = 'ok')],
    ['a lower-case country', (order) => (order.shipping_address.country_id = 'fr')],
    ['five street lines', (order) => (order.shipping_address.street = ['1', '2', '3', '4', '5'])],
    ['a negative total', (order) => (order.grand_total = -1)],
    ['a price over 1,000,000', (order) => (order.items[0].price = 1_000_000.01)],
    ['a business customer whose SIREN is 8 digits', (order) => (order.business_customer = { company_name: 'Atelier Martin SARL', siren: '44306184' })],
    [
      'a business customer whose VAT number is not French',
      (order) => (order.business_customer = { company_name: 'Atelier Martin SARL', siren: '443061841', vat_number: 'DE123456789' }),
    ],
  ])('when an order has %s, both refuse it', (_, spoil) => {
    expect(verdicts(checks, spoiled(spoil))).toEqual(bothRefuse);
  });

  it('when a business customer has a SIREN and its VAT number, or a SIRET, both accept it', () => {
    for (const business_customer of [
      { company_name: 'Atelier Martin SARL', siren: '443061841', vat_number: 'FR64443061841' },
      { company_name: 'Atelier Martin SARL', siret: '44306184100013' },
    ])
      expect(
        verdicts(
          checks,
          spoiled((order) => (order.business_customer = business_customer)),
        ),
      ).toEqual(bothAccept);
  });

  it("when a business customer's SIREN has a wrong check digit, or it has no SIREN nor SIRET, only zod refuses it: the description states the rules", () => {
    for (const business_customer of [{ company_name: 'Atelier Martin SARL', siren: '443061842' }, { company_name: 'Atelier Martin SARL' }])
      expect(
        verdicts(
          checks,
          spoiled((order) => (order.business_customer = business_customer)),
        ),
      ).toEqual({ jsonSchema: undefined, zod: expect.any(String) });
    expect(schema.description).toContain(
      'A business_customer has a SIREN or a SIRET with a valid check digit, and its VAT number, when given, is the one of that SIREN.',
    );
  });

  it('when an amount has 3 decimals, or the lines add up to more than 1,000,000, only zod refuses it: the description states both rules', () => {
    const overTotal = spoiled((order) => (order.items = [{ sku: 'CAN-OSLO-3P-GRY', name: 'Canapé', qty_ordered: 2, price: 600_000 }]));
    for (const order of [spoiled((order) => (order.items[0].price = 649.001)), overTotal]) {
      expect(verdicts(checks, order)).toEqual({ jsonSchema: undefined, zod: expect.any(String) });
    }
    expect(schema.description).toContain(
      'Every amount has at most 2 decimals, and the lines (price x qty_ordered) with the shipping add up to at most 1000000.',
    );
  });
});

describe('the catalog-import contract as JSON Schema', () => {
  const schema = catalogImportJsonSchema();
  const checks = { jsonSchema: jsonSchemaCheck(schema), zod: zodCheck(catalogImportFile) };
  const withFirst = (change: Record<string, unknown>) => {
    const [first, ...others] = exampleCatalog();
    return [{ ...first, ...change }, ...others];
  };

  it('when printed, it is a draft 2020-12 schema of an array of products that refuses unknown keys and lists vat_rate', () => {
    expect(schema).toMatchObject({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      title: 'Catalog import file',
      type: 'array',
      items: { type: 'object', required: ['sku', 'name', 'price'], additionalProperties: false, properties: { vat_rate: { default: 20 } } },
    });
  });

  it('when the example file is checked, both accept it', () => {
    expect(verdicts(checks, exampleCatalog())).toEqual(bothAccept);
  });

  it.each([20, 10, 5.5, 2.1])('when a product is sold at the French VAT rate %s, both accept it', (rate) => {
    expect(verdicts(checks, withFirst({ vat_rate: rate }))).toEqual(bothAccept);
  });

  it.each([
    ['a VAT rate that is not French', { vat_rate: 7 }],
    ['a VAT rate as text', { vat_rate: '20' }],
    ['a key the contract does not know', { colour: 'grey' }],
    ['an EAN of 13 digits', { ean14: '1234567890123' }],
    ['an unknown supplier', { supplier: 'supplier-c' }],
    ['a negative price', { price: -1 }],
    ['an image that is not a URI', { images: ['photo 1'] }],
    ['no parcel', { package_count: 0 }],
    ['a stock of 2.5', { stock_qty: 2.5 }],
  ])('when a product has %s, both refuse it', (_, change) => {
    expect(verdicts(checks, withFirst(change))).toEqual(bothRefuse);
  });

  it('when a SKU is listed twice, only zod refuses the file: the description states the rule', () => {
    const catalog = exampleCatalog();
    expect(verdicts(checks, [...catalog, catalog[0]])).toEqual({ jsonSchema: undefined, zod: expect.any(String) });
    expect(schema.description).toContain('a SKU listed twice');
  });
});
