import type { ProductFields } from '../../events/catalog/events.ts';

/** Whether a product can be had now, later or not: what the chatbot tells a customer. */
export type StockStatus = 'in_stock' | 'out_of_stock' | 'backorder';

// The catalog writes availability as free text ("In Stock", "Backorder", "Out of Stock"), in English or French.
const backorderWords = /back.?order|pre.?order|pr[ée].?commande|sur commande|r[ée]approvisionnement/i;
const outOfStockWords = /out of stock|rupture|indisponible|[ée]puis[ée]|unavailable/i;
const inStockWords = /in stock|en stock|disponible|available/i;

/**
 * Backorder when the catalog says so (its stock is then 0); otherwise the stock quantity decides when
 * known, else the availability text. With neither, the product is not promised: out of stock.
 */
export const stockStatus = (product: Pick<ProductFields, 'availability' | 'stock_qty'>): StockStatus => {
  const availability = product.availability ?? '';
  if (backorderWords.test(availability)) return 'backorder';
  if (product.stock_qty !== null) return product.stock_qty > 0 ? 'in_stock' : 'out_of_stock';
  if (outOfStockWords.test(availability)) return 'out_of_stock';
  return inStockWords.test(availability) ? 'in_stock' : 'out_of_stock';
};

/** The catalog's own wording, for a product whose availability was never given. */
const availabilityLabels: Record<StockStatus, string> = {
  in_stock: 'In Stock',
  out_of_stock: 'Out of Stock',
  backorder: 'Backorder',
};

export const availabilityText = (product: Pick<ProductFields, 'availability' | 'stock_qty'>): string =>
  product.availability ?? availabilityLabels[stockStatus(product)];
