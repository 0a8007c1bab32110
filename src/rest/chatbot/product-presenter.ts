import type { ProductDocument } from '../../projections/catalog/product-document.ts';
import { availabilityText, stockStatus } from './stock-status.ts';

/**
 * A catalog product as the chatbot shows it. Internal data (wholesale price, supplier) stays out; a
 * missing description is "" and a missing availability the wording of its stock status, so that
 * the fields typed as text are always text.
 */
export const presentProduct = (product: ProductDocument) => ({
  sku: product.sku,
  name: product.name,
  price: product.price,
  description: product.description ?? '',
  availability: availabilityText(product),
  images: product.images,
  stock_status: stockStatus(product),
  stock_qty: product.stock_qty,
  ean14: product.ean14,
});
