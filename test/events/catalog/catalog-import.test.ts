import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { catalogImportFile, catalogImportItem, toProductFields } from '../../../src/events/catalog/catalog-import.ts';

const example: unknown = JSON.parse(readFileSync(new URL('../../../docs/examples/catalog.json', import.meta.url), 'utf8'));

const minimal = { sku: 'CHR-ELM-NAT', name: 'Chaise Elm naturelle', price: 89 };

const refusal = (input: unknown): string => {
  const result = catalogImportItem.safeParse(input);
  if (result.success) throw new Error('expected the item to be refused');
  return z.prettifyError(result.error);
};

describe('catalog import item', () => {
  it('when the example file is parsed, all its products are accepted', () => {
    const parsed = catalogImportFile.parse(example);
    expect(parsed.map((item) => item.sku)).toEqual(['CAN-OSLO-3P-GRY', 'TAB-NORD-180', 'LAMP-ARC-BLK']);
  });

  it('when an item has a key the contract does not know, it is refused naming the key', () => {
    expect(refusal({ ...minimal, colour: 'grey' })).toContain('colour');
  });

  it.each([
    ['price', 1e308, 'must be an amount of at most 1000000'],
    ['price', 9.999, 'must be an amount with at most 2 decimals'],
    ['wholesale_price', -1, 'must be an amount of at least 0'],
    ['stock_qty', 1e9, 'must be at most 1000000'],
    ['package_count', 0.5, 'must be a whole number'],
    ['weight_kg', 1e308, 'must be a weight of at most 100000 (kg)'],
  ])('when %s is %s, it is refused: %s', (field, value, message) => {
    expect(refusal({ ...minimal, [field]: value })).toContain(message);
  });

  it('when the ean14 is not 14 digits, it is refused naming the field', () => {
    expect(refusal({ ...minimal, ean14: '376012345001' })).toContain('ean14');
    expect(refusal({ ...minimal, ean14: '0376012345001X' })).toContain('ean14');
  });

  it('when the price is negative, it is refused naming the field', () => {
    expect(refusal({ ...minimal, price: -1 })).toContain('price');
  });

  it('when a required field is missing, it is refused naming the field', () => {
    expect(refusal({ sku: 'X', price: 1 })).toContain('name');
  });

  it('when the supplier is not one of ours, it is refused naming the field', () => {
    expect(refusal({ ...minimal, supplier: 'supplier-c' })).toContain('supplier');
  });

  it('when a package count is zero, it is refused naming the field', () => {
    expect(refusal({ ...minimal, package_count: 0 })).toContain('package_count');
  });
});

describe('catalog import file', () => {
  it('when a SKU is listed twice, the file is refused naming the SKU and both positions', () => {
    const result = catalogImportFile.safeParse([minimal, { ...minimal, sku: 'OTHER' }, { ...minimal, price: 99 }]);
    expect(result.success).toBe(false);
    if (!result.success) {
      expect(result.error.issues).toEqual([expect.objectContaining({ path: [2, 'sku'], message: 'duplicate sku CHR-ELM-NAT (first at index 0)' })]);
    }
  });

  it('when the file is not an array, it is refused', () => {
    expect(catalogImportFile.safeParse(minimal).success).toBe(false);
  });
});

describe('product fields of an import item', () => {
  it('when optional fields are absent, they are null and images are empty', () => {
    expect(toProductFields(catalogImportItem.parse(minimal))).toEqual({
      sku: 'CHR-ELM-NAT',
      ean14: null,
      name: 'Chaise Elm naturelle',
      description: null,
      price: 89,
      wholesale_price: null,
      availability: null,
      stock_qty: null,
      images: [],
      supplier: null,
      carrier: null,
      weight_kg: null,
      package_count: null,
      vat_rate: 20,
      operation_category: 'goods',
    });
  });

  it('when a VAT rate is given, it is one of the French rates and is kept; another rate is refused naming the field', () => {
    for (const rate of [20, 10, 5.5, 2.1]) expect(toProductFields(catalogImportItem.parse({ ...minimal, vat_rate: rate })).vat_rate).toBe(rate);
    const refused = catalogImportItem.safeParse({ ...minimal, vat_rate: 19.6 });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.path).toEqual(['vat_rate']);
    expect(refused.error?.issues[0]?.message).toMatch(/20, 10, 5.5, 2.1/);
  });

  it('when a category of operation is given, goods or services, it is kept; absent, the product is goods; another is refused naming the field', () => {
    expect(toProductFields(catalogImportItem.parse({ ...minimal, operation_category: 'services' })).operation_category).toBe('services');
    expect(toProductFields(catalogImportItem.parse({ ...minimal, operation_category: 'goods' })).operation_category).toBe('goods');
    expect(toProductFields(catalogImportItem.parse(minimal)).operation_category).toBe('goods');
    const refused = catalogImportItem.safeParse({ ...minimal, operation_category: 'both' });
    expect(refused.error?.issues[0]?.path).toEqual(['operation_category']);
  });

  it('when every field is given, each is kept', () => {
    const [first] = catalogImportFile.parse(example);
    expect(toProductFields(first!)).toEqual({
      sku: 'CAN-OSLO-3P-GRY',
      ean14: '03760123450017',
      name: 'Canapé 3 places Oslo gris',
      description: 'Canapé fixe 3 places, tissu chiné gris, pieds chêne.',
      price: 649,
      wholesale_price: 389.4,
      availability: 'In Stock',
      stock_qty: 42,
      images: ['https://cdn.example.com/p/can-oslo-3p-gry-1.jpg'],
      supplier: 'supplier-a',
      carrier: 'Geodis',
      weight_kg: 58,
      package_count: 2,
      vat_rate: 20,
      operation_category: 'goods',
    });
  });
});
