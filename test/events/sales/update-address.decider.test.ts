import { describe, it } from 'vitest';
import { deciderSpec } from '../../support/decider-spec.ts';
import { saleDecider } from '../../../src/events/sales/decider.ts';
import type { Address } from '../../../src/events/schema/common-schemas.ts';
import { address, at, cancelled, onlyProduct, product, saleImported, shipped, type Command } from './sale-fixtures.ts';

const spec = deciderSpec(saleDecider);
const update = (shippingAddress: Address): Command<'UpdateSaleAddress'> => ({ type: 'UpdateSaleAddress', shippingAddress, at });
const moved = address({ street: ['3 place Bellecour'], postcode: '69002' });

describe('updating the shipping address of a sale', () => {
  it('when nothing is shipped, records the new address', () => {
    const sale = saleImported();
    spec
      .given([sale])
      .when(update(moved))
      .then([{ type: 'SaleAddressUpdated', data: { saleId: sale.data.saleId, shippingAddress: moved, updatedAt: at } }]);
  });

  it('when the address is the one already recorded, nothing happens', () => {
    const sale = saleImported();
    spec.given([sale]).when(update(address())).thenNothingHappens();
  });

  it('when the address is the one already recorded with its fields in another order, nothing happens', () => {
    const sale = saleImported();
    const { city, country_id, ...rest } = address();
    spec
      .given([sale])
      .when(update({ country_id, city, ...rest }))
      .thenNothingHappens();
  });

  it('when only the telephone changes, records the new address', () => {
    const sale = saleImported();
    const withPhone = address({ telephone: '+33612345678' });
    spec
      .given([sale])
      .when(update(withPhone))
      .then([{ type: 'SaleAddressUpdated', data: { saleId: sale.data.saleId, shippingAddress: withPhone, updatedAt: at } }]);
  });

  it('when a product is shipped, is refused', () => {
    const sale = saleImported({ products: [product(), product()] });
    spec
      .given([sale, shipped(sale, onlyProduct(sale))])
      .when(update(moved))
      .thenRefused('already_shipped');
  });

  it('when the sale is cancelled, is refused', () => {
    const sale = saleImported();
    spec
      .given([sale, cancelled(sale, onlyProduct(sale))])
      .when(update(moved))
      .thenRefused('sale_cancelled');
  });

  it('when the sale does not exist, is refused as not found', () => {
    spec.given([]).when(update(moved)).thenRefused('sale_not_found');
  });
});
