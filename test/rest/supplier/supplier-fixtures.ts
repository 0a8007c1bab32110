import { systemContext } from '../../../src/events/command-context.ts';
import type { SupplierName } from '../../../src/events/schema/common-schemas.ts';
import { importSale, type OrderImportPayload } from '../../../src/events/sales/import-sale.ts';
import type { ApiHarness } from '../../support/api-harness.ts';
import { readModelsCaughtUp } from '../../support/api-harness.ts';

/** Orders for the supplier API specs: fresh increment IDs, drop-shipped lines of a chosen supplier. */

export const baseUrl = 'https://orders.example.test';

let lastIncrementId = 400_000_000;

export const freshIncrementId = (): string => String(++lastIncrementId);

export type LineSpec = {
  /** Absent: the catalog's supplier for the SKU; null: own stock. */
  supplier?: SupplierName | null;
  sku?: string;
  qty?: number;
  wholesalePrice?: number;
  carrier?: string;
};

export const anOrder = (lines: readonly LineSpec[], options: { createdAt?: string; incrementId?: string } = {}): OrderImportPayload => ({
  increment_id: options.incrementId ?? freshIncrementId(),
  created_at: options.createdAt ?? '2026-10-02T09:14:00+02:00',
  customer: { email: 'claire.martin@example.org', firstname: 'Claire', lastname: 'Martin' },
  shipping_address: { firstname: 'Claire', lastname: 'Martin', street: ['12 rue des Lilas'], postcode: '69003', city: 'Lyon', country_id: 'FR' },
  items: lines.map((line, index) => ({
    sku: line.sku ?? `SKU-${index + 1}`,
    name: `Produit ${index + 1}`,
    qty_ordered: line.qty ?? 1,
    price: 100,
    ...(line.supplier !== undefined && { supplier: line.supplier }),
    ...(line.wholesalePrice !== undefined && { wholesale_price: line.wholesalePrice }),
    ...(line.carrier !== undefined && { carrier: line.carrier }),
  })),
});

/** Imports the order as the order import does; answers the service_order_id of each of its lines, in order. */
export const importOrder = async (api: ApiHarness, order: OrderImportPayload): Promise<string[]> => {
  const result = await importSale(api.runtime.salesDeps, order, systemContext());
  await readModelsCaughtUp(api.runtime);
  return result.saleProductIds.map((saleProductId) => `${order.increment_id}_${saleProductId}`);
};

/** One order with one line of `supplier`; answers its service_order_id. */
export const importLine = async (api: ApiHarness, supplier: SupplierName, options: { createdAt?: string } = {}): Promise<string> => {
  const [serviceOrderId] = await importOrder(api, anOrder([{ supplier, carrier: 'Geodis', wholesalePrice: 50 }], options));
  if (serviceOrderId === undefined) throw new Error('the order has no line');
  return serviceOrderId;
};

export const bearer = (token: string): Record<string, string> => ({ Authorization: `Bearer ${token}` });

export const unauthorizedBody = { error: 'Unauthorized', message: 'Invalid or missing Bearer token' };
export const acknowledgedBody = { success: true, message: 'Votre produit a bien été acquitté' };
export const shippedBody = { success: true, message: 'Votre produit a été expédié avec succès' };
export const nothingDeliverableBody = { success: false, message: "Aucun produit livrable n'a été trouvé pour être expédié" };
export const invalidIdBody = { success: false, message: 'Invalid service_order_id format' };
export const notFoundBody = { success: false, message: 'Order not found or already processed' };
export const jsonUtf8 = 'application/json; charset=utf-8';
