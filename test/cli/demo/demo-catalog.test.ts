import { describe, expect, it } from 'vitest';
import { demoCatalog } from '../../../src/cli/demo/demo-data.ts';
import { catalogImportJsonSchema } from '../../../src/contracts/json-schemas.ts';
import { catalogImportFile } from '../../../src/events/catalog/catalog-import.ts';
import { jsonSchemaCheck, zodCheck } from '../../support/contract-checks.ts';

/** GS1 validation as a scanner does it: weights 3, 1, 3... from the left over the 13 first digits. */
const hasValidCheckDigit = (code: string): boolean =>
  [...code].reduce((sum, digit, i) => sum + Number(digit) * (i === 13 ? 1 : i % 2 === 0 ? 3 : 1), 0) % 10 === 0;

const isCents = (amount: number): boolean => Math.round(amount * 100) / 100 === amount;
const catalog = demoCatalog(7);
const byContract = jsonSchemaCheck(catalogImportJsonSchema());

describe('demo catalog', () => {
  it('when built twice from the same seed, is byte-identical', () => {
    expect(JSON.stringify(demoCatalog(7))).toBe(JSON.stringify(catalog));
  });

  it('when built from another seed, differs', () => {
    expect(JSON.stringify(demoCatalog(8))).not.toBe(JSON.stringify(catalog));
  });

  it('lists about 120 products of furniture and household appliances, named in French', () => {
    expect(catalog.length).toBeGreaterThanOrEqual(110);
    expect(catalog.length).toBeLessThanOrEqual(135);
    const names = catalog.map((item) => item.name).join('\n');
    for (const noun of ['Canapé', 'Table à manger', 'Lot de', 'Lit ', 'Matelas', 'Armoire', 'Lave-linge', 'Réfrigérateur', 'Four', 'Lave-vaisselle', 'Lampe']) {
      expect(names).toContain(noun);
    }
  });

  it('validates, product by product, against the JSON Schema of the catalog-import contract', () => {
    expect(catalog.flatMap((item) => byContract([item]) ?? [])).toEqual([]);
    expect(byContract(catalog)).toBeUndefined();
  });

  it('is accepted whole by the catalog import parser', () => {
    expect(zodCheck(catalogImportFile)(catalog)).toBeUndefined();
  });

  it('has unique SKUs and unique GTIN-14 codes with a valid GS1 check digit', () => {
    expect(new Set(catalog.map((item) => item.sku)).size).toBe(catalog.length);
    expect(new Set(catalog.map((item) => item.ean14)).size).toBe(catalog.length);
    for (const item of catalog) expect(hasValidCheckDigit(item.ean14 ?? ''), `${item.sku} ${item.ean14}`).toBe(true);
  });

  it('prices in cents, with a wholesale price between 55 and 70 % of the retail price', () => {
    for (const item of catalog) {
      expect(isCents(item.price) && isCents(item.wholesale_price ?? -1), item.sku).toBe(true);
      expect(item.price).toBeGreaterThan(0);
      const ratio = (item.wholesale_price ?? 0) / item.price;
      expect(ratio, item.sku).toBeGreaterThanOrEqual(0.549);
      expect(ratio, item.sku).toBeLessThanOrEqual(0.701);
    }
  });

  it('says In Stock exactly when there is stock, Out of Stock or Backorder otherwise', () => {
    for (const item of catalog) {
      if ((item.stock_qty ?? 0) > 0) expect(item.availability, item.sku).toBe('In Stock');
      else expect(['Out of Stock', 'Backorder'], item.sku).toContain(item.availability);
    }
    expect(new Set(catalog.map((item) => item.availability))).toEqual(new Set(['In Stock', 'Out of Stock', 'Backorder']));
  });

  it('shows images under the CDN, named after the SKU', () => {
    for (const item of catalog) {
      expect(item.images?.[0], item.sku).toBe(`https://cdn.example.com/p/${item.sku.toLowerCase()}-1.jpg`);
    }
  });

  it('ships heavy goods by freight carrier and parcels of under 30 kg by parcel carrier', () => {
    for (const item of catalog) {
      const carriers =
        (item.weight_kg ?? 0) >= 30 ? ['Geodis', 'DB Schenker', 'Kuehne+Nagel'] : ['Geodis', 'DB Schenker', 'Kuehne+Nagel', 'DPD', 'Colissimo', 'Chronopost'];
      expect(carriers, item.sku).toContain(item.carrier);
      expect(item.package_count).toBeGreaterThanOrEqual(1);
    }
    expect(catalog.find((item) => item.sku.startsWith('LAP-'))?.carrier).toMatch(/^(DPD|Colissimo|Chronopost)$/);
    expect(catalog.find((item) => item.sku.startsWith('ARM-'))?.carrier).toMatch(/^(Geodis|DB Schenker|Kuehne\+Nagel)$/);
  });

  it('when taken over many seeds, sources about 45 % from supplier-a, 35 % from supplier-b and 20 % from own stock', () => {
    const items = Array.from({ length: 20 }, (_, seed) => demoCatalog(seed)).flat();
    const share = (supplier: string | null): number => items.filter((item) => item.supplier === supplier).length / items.length;
    expect(share('supplier-a')).toBeGreaterThan(0.4);
    expect(share('supplier-a')).toBeLessThan(0.5);
    expect(share('supplier-b')).toBeGreaterThan(0.3);
    expect(share('supplier-b')).toBeLessThan(0.4);
    expect(share(null)).toBeGreaterThan(0.15);
    expect(share(null)).toBeLessThan(0.25);
  });
});
