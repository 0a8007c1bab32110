import { describe, expect, it } from 'vitest';
import { availabilityText, stockStatus } from '../../../src/rest/chatbot/stock-status.ts';

describe('the stock status the chatbot tells', () => {
  it.each([
    ['In Stock', 42, 'in_stock'],
    ['In Stock', 0, 'out_of_stock'],
    ['Backorder', 0, 'backorder'],
    ['Sur commande', null, 'backorder'],
    ['Out of Stock', 0, 'out_of_stock'],
    ['Out of Stock', null, 'out_of_stock'],
    ['Indisponible', null, 'out_of_stock'],
    ['Épuisé', null, 'out_of_stock'],
    ['En stock', null, 'in_stock'],
    ['In Stock', null, 'in_stock'],
    [null, 3, 'in_stock'],
    [null, 0, 'out_of_stock'],
    [null, null, 'out_of_stock'],
    ['Livraison sous 3 semaines', null, 'out_of_stock'],
  ] as const)('when availability is %j and stock is %j, it is %s', (availability, stock_qty, expected) => {
    expect(stockStatus({ availability, stock_qty })).toBe(expected);
  });

  it("when the catalog gives no availability, it is worded from the stock status in the catalog's words", () => {
    expect(availabilityText({ availability: null, stock_qty: 5 })).toBe('In Stock');
    expect(availabilityText({ availability: null, stock_qty: 0 })).toBe('Out of Stock');
    expect(availabilityText({ availability: 'Disponible sous 48 h', stock_qty: 5 })).toBe('Disponible sous 48 h');
  });
});
