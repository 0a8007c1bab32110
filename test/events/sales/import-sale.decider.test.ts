import { describe, it } from 'vitest';
import { deciderSpec } from '../../support/decider-spec.ts';
import { saleDecider } from '../../../src/events/sales/decider.ts';
import type { ImportSale } from '../../../src/events/sales/commands.ts';
import { at, saleImported, type SaleImportedEvent } from './sale-fixtures.ts';

const spec = deciderSpec(saleDecider);

const importOf = (sale: SaleImportedEvent): ImportSale => {
  const { importedAt: _importedAt, ...data } = sale.data;
  return { type: 'ImportSale', data: { ...data, at } };
};

describe('importing a sale', () => {
  it('when the order is new, records the sale as imported now', () => {
    const sale = saleImported();
    spec.given([]).when(importOf(sale)).then([{ type: 'SaleImported', data: { ...sale.data, importedAt: at } }]);
  });

  it('when the order was already imported, nothing happens', () => {
    const sale = saleImported();
    spec.given([sale]).when(importOf(sale)).thenNothingHappens();
  });

  it('when the order was already imported with other IDs, nothing happens and the recorded sale stands', () => {
    const recorded = saleImported();
    const again = saleImported({ incrementId: recorded.data.incrementId });
    spec.given([recorded]).when(importOf(again)).thenNothingHappens();
  });
});
