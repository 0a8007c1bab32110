import { catalogProducts } from '../../src/events/catalog/catalog-handlers.ts';
import { systemContext } from '../../src/events/command-context.ts';
import { importSale, type OrderImportPayload } from '../../src/events/sales/import-sale.ts';
import type { ApiHarness } from '../support/api-harness.ts';
import { trackingNumbersOf } from '../support/tracking-numbers.ts';
import { readModelsCaughtUp } from '../support/api-harness.ts';

/** A sofa drop-shipped by supplier-a, a table from own stock and two lamps supplier-b ships. */
export const order = (overrides: Partial<OrderImportPayload> = {}): OrderImportPayload => ({
  source: 'shopping-api',
  increment_id: '100004512',
  created_at: '2026-10-02T09:14:00+02:00',
  currency: 'EUR',
  customer: { email: 'Claire.Martin@example.org', firstname: 'Claire', lastname: 'Martin', phone: '+33612345678' },
  shipping_address: { firstname: 'Claire', lastname: 'Martin', street: ['12 rue des Lilas'], postcode: '69003', city: 'Lyon', country_id: 'FR' },
  items: [
    { sku: 'CAN-OSLO-3P-GRY', name: 'Canapé 3 places Oslo gris', qty_ordered: 1, price: 649, supplier: 'supplier-a', carrier: 'Geodis' },
    { sku: 'TAB-NORD-180', name: 'Table à manger Nord 180 cm', qty_ordered: 1, price: 499, supplier: null, carrier: 'Colissimo' },
    { sku: 'LAMP-ARC-BLK', name: 'Lampadaire arc noir', qty_ordered: 2, price: 129.9, supplier: 'supplier-b', carrier: 'DPD' },
  ],
  payment: { method: 'card', status: 'paid', amount_paid: 1407.8 },
  shipping_amount: 0,
  grand_total: 1407.8,
  ...overrides,
});

export const seedCatalog = (api: ApiHarness) =>
  catalogProducts(
    api.runtime.write,
    [{ sku: 'CAN-OSLO-3P-GRY', name: 'Canapé 3 places Oslo gris', price: 649, supplier: 'supplier-a', carrier: 'Geodis' }],
    systemContext(),
  );

export const importOrder = async (api: ApiHarness, payload: OrderImportPayload = order()) => {
  const imported = await importSale(api.runtime.salesDeps, payload, systemContext());
  await readModelsCaughtUp(api.runtime);
  const [sofa, table, lamp] = imported.saleProductIds;
  return { ...imported, sofa: sofa!, table: table!, lamp: lamp!, trackingOf: await trackingNumbersOf(api.runtime, imported.incrementId) };
};

/** A SAV filed through the core REST route, as the back office files them. */
export const fileSav = async (api: ApiHarness, saleProductId: number, complaintName = 'Produit endommagé') => {
  const token = await api.tokenFor('core', 'back-office');
  const response = await api.request
    .post('/api/sale-sav/create-for-sale-product')
    .set('Authorization', `Bearer ${token}`)
    .send({ saleProductId, data: { complaint: 'Le pied est fendu.', complaint_name: complaintName, sav_type: 'repair' } });
  if (response.status !== 201) throw new Error(`SAV not created: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body as { sav_id: number };
};
