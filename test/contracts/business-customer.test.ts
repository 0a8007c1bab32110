import { describe, expect, it } from 'vitest';
import { orderImportBody, orderImportFile, type OrderImportInput } from '../../src/contracts/order-import.ts';
import { validateJsonFile } from '../../src/cli/read-json-file.ts';
import { importSaleCommand } from '../../src/events/sales/import-sale.ts';
import { SaleImported } from '../../src/events/sales/events.ts';

/**
 * A business customer at the import's edge: its SIREN or SIRET and its VAT number are checked with
 * their keys, each refusal naming its field, before anything is recorded; an order without one is a
 * consumer sale, recorded exactly as before.
 */

// A fictitious company: SIREN 443 061 841, valid in form.
const company = { company_name: 'Atelier Martin SARL', siren: '443061841', vat_number: 'FR64443061841' };

const anOrder = (business_customer?: Record<string, unknown>): Record<string, unknown> => ({
  increment_id: '100004512',
  created_at: '2026-10-02T09:14:00+02:00',
  customer: { email: 'claire.martin@example.org', firstname: 'Claire', lastname: 'Martin' },
  ...(business_customer && { business_customer }),
  shipping_address: { firstname: 'Claire', lastname: 'Martin', street: ['12 rue des Lilas'], postcode: '69003', city: 'Lyon', country_id: 'FR' },
  items: [{ sku: 'TAB-NORD-180', name: 'Table à manger Nord 180 cm', qty_ordered: 1, price: 499 }],
});

/** The first issue of a refused order, as the REST import's 400 and the CLI name it. */
const refusal = (order: unknown): string => {
  const result = orderImportBody.safeParse(order);
  if (result.success) throw new Error('expected the order to be refused');
  const [issue] = result.error.issues;
  return `${issue?.path.join('.')}: ${issue?.message}`;
};

/** The SaleImported the import would record from the order, as the log would keep it. */
const recorded = (order: unknown) => {
  const parsed = orderImportBody.parse(order) as OrderImportInput;
  const {
    type: _type,
    at,
    trackingNumbers: _numbers,
    ...data
  } = importSaleCommand(parsed, {
    saleId: 42,
    saleProductIds: [500],
    catalog: [null],
    at: '2026-10-03T08:00:00.000Z',
  });
  return SaleImported.schema.parse({ ...data, importedAt: at });
};

describe('a business customer in the order import', () => {
  it('when the company gives a valid SIREN and its VAT number, the sale records them, without a SIRET', () => {
    expect(recorded(anOrder(company)).businessCustomer).toEqual({
      companyName: 'Atelier Martin SARL',
      siren: '443061841',
      siret: null,
      vatNumber: 'FR64443061841',
    });
  });

  it('when the company gives a valid SIRET alone, the sale records it and the SIREN it begins with', () => {
    const { siren: _siren, vat_number: _vat, ...name } = company;
    expect(recorded(anOrder({ ...name, siret: '44306184100013' })).businessCustomer).toEqual({
      companyName: 'Atelier Martin SARL',
      siren: '443061841',
      siret: '44306184100013',
      vatNumber: null,
    });
  });

  it('when the order has no business customer, it is a consumer sale recorded as before: no such field at all', () => {
    const data = recorded(anOrder());
    expect('businessCustomer' in data).toBe(false);
    expect(JSON.stringify(data)).not.toContain('business');
  });

  it.each([
    ['a SIREN whose check digit is wrong', { ...company, siren: '443061842' }, 'business_customer.siren: not a SIREN: its check digit is wrong'],
    ['a SIREN of 8 digits', { ...company, siren: '44306184' }, 'business_customer.siren: a SIREN is 9 digits'],
    [
      'a SIRET whose check digit is wrong',
      { company_name: 'Atelier Martin SARL', siret: '44306184100014' },
      'business_customer.siret: not a SIRET: its check digit is wrong',
    ],
    [
      'a SIRET of another SIREN',
      { ...company, siret: '73282932000074' },
      'business_customer.siret: not a SIRET of the SIREN 443 061 841: its first 9 digits differ',
    ],
    [
      'the VAT number of another SIREN',
      { ...company, vat_number: 'FR44732829320' },
      'business_customer.vat_number: not the VAT number of the SIREN 443 061 841, which is FR64443061841',
    ],
    [
      'a VAT number with a wrong key',
      { ...company, vat_number: 'FR65443061841' },
      'business_customer.vat_number: not the VAT number of the SIREN 443 061 841, which is FR64443061841',
    ],
    [
      'a VAT number that is not French',
      { ...company, vat_number: 'DE123456789' },
      'business_customer.vat_number: a French intra-EU VAT number: FR, a 2-character key, the SIREN',
    ],
    ['neither a SIREN nor a SIRET', { company_name: 'Atelier Martin SARL' }, 'business_customer.siren: a SIREN or a SIRET is required for a business customer'],
    ['no company name', { siren: '443061841' }, 'business_customer.company_name: Invalid input: expected string, received undefined'],
  ])('when the company has %s, the order is refused naming the field', (_, businessCustomer, message) => {
    expect(refusal(anOrder(businessCustomer))).toBe(message);
  });

  it('when an `orders import` file has one order with a wrong SIREN, the whole file is refused naming that order and field', () => {
    const file = [anOrder(company), anOrder({ ...company, siren: '443061842' })];
    expect(() => validateJsonFile('orders.json', file, orderImportFile)).toThrow(
      'orders.json: does not match the contract:\n  1.business_customer.siren: not a SIREN: its check digit is wrong',
    );
  });
});
