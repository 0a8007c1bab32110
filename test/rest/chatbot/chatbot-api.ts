import type { Response } from 'supertest';
import { expect } from 'vitest';
import { catalogProducts } from '../../../src/events/catalog/catalog-handlers.ts';
import type { CatalogImportItem } from '../../../src/events/catalog/catalog-import.ts';
import { systemContext, type Clock } from '../../../src/events/command-context.ts';
import { importSale, type OrderImportPayload } from '../../../src/events/sales/import-sale.ts';
import { readModelsCaughtUp, startApi, type ApiHarness } from '../../support/api-harness.ts';
import { trackingNumbersOf } from '../../support/tracking-numbers.ts';

/** The chatbot API on a fresh data directory, a frozen clock and a chatbot token. */

export const now = '2026-10-05T08:00:00.000Z';
/** `now` as every answer writes an instant: at the second, in the planning time zone (Paris) with its offset. */
export const nowAnswered = '2026-10-05T10:00:00+02:00';
export const frozenClock: Clock = { now: () => new Date(now) };

export type ChatbotApi = ApiHarness & {
  token: string;
  get: (path: string) => Promise<Response>;
  post: (path: string, body: unknown) => Promise<Response>;
};

export const startChatbotApi = async (): Promise<ChatbotApi> => {
  const api = await startApi({ clock: frozenClock });
  const token = await api.tokenFor('chatbot', 'chatbot-test');
  return {
    ...api,
    token,
    get: async (path) => api.request.get(path).set('X-API-Token', token),
    post: async (path, body) =>
      api.request
        .post(path)
        .set('X-API-Token', token)
        .send(body as object),
  };
};

/** Byte for byte: the status, a JSON content type and exactly this body, keys in this order. */
export const expectJson = (response: Response, status: number, body: unknown): void => {
  expect({ status: response.status, body: response.body }).toEqual({ status, body });
  expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(response.text).toBe(JSON.stringify(body));
};

export const catalog: CatalogImportItem[] = [
  {
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
  },
  { sku: 'TAB-NORD-180', name: 'Table à manger Nord 180 cm', price: 499, availability: 'Backorder', stock_qty: 0 },
];

export const orderEmail = 'Claire.Martin@example.org';

/** The contract's example order: a drop-shipped sofa, a table from own stock, two lamps no longer catalogued. */
export const order = (overrides: Partial<OrderImportPayload> = {}): OrderImportPayload => ({
  source: 'shopping-api',
  increment_id: '100004512',
  created_at: '2026-10-02T09:14:00+02:00',
  currency: 'EUR',
  customer: { email: orderEmail, firstname: 'Claire', lastname: 'Martin', phone: '+33612345678' },
  shipping_address: {
    firstname: 'Claire',
    lastname: 'Martin',
    street: ['12 rue des Lilas', 'Bâtiment B'],
    postcode: '69003',
    city: 'Lyon',
    country_id: 'FR',
    telephone: '+33612345678',
  },
  items: [
    { sku: 'CAN-OSLO-3P-GRY', name: 'Canapé 3 places Oslo gris', qty_ordered: 1, price: 649, requires_appointment: true },
    { sku: 'TAB-NORD-180', name: 'Table à manger Nord 180 cm', qty_ordered: 1, price: 499, supplier: null, carrier: 'Colissimo' },
    { sku: 'LAMP-ARC-BLK', name: 'Lampadaire arc noir', qty_ordered: 2, price: 129.9 },
  ],
  payment: { method: 'card', status: 'paid', amount_paid: 1407.8 },
  shipping_amount: 0,
  grand_total: 1407.8,
  ...overrides,
});

export const seedCatalog = async (api: ApiHarness): Promise<void> => {
  await catalogProducts(api.runtime.write, catalog, systemContext());
  await readModelsCaughtUp(api.runtime);
};

export const importOrder = async (api: ApiHarness, payload: OrderImportPayload = order()) => {
  const imported = await importSale(api.runtime.salesDeps, payload, systemContext());
  await readModelsCaughtUp(api.runtime);
  const [sofa, table, lamp] = imported.saleProductIds;
  return { ...imported, sofa: sofa!, table: table!, lamp: lamp!, trackingOf: await trackingNumbersOf(api.runtime, imported.incrementId) };
};

export const savRequest = (overrides: Record<string, unknown> = {}) => ({
  increment_id: '100004512',
  email: 'claire.martin@example.org',
  product_sku: 'CAN-OSLO-3P-GRY',
  complaint_name: 'Produit endommagé',
  complaint: 'Un pied du canapé est cassé à la livraison.',
  ...overrides,
});

/** Staff changing the status of SAVs through the core routes, as the back office does; each change must succeed. */
export const staffChanges = (api: ApiHarness) => {
  let token: Promise<string> | undefined;
  const post = async (path: string, body: object) => {
    token ??= api.tokenFor('core', 'back-office');
    const response = await api.request
      .post(path)
      .set('Authorization', `Bearer ${await token}`)
      .send(body);
    if (response.status !== 200) throw new Error(`${path}: ${response.status} ${JSON.stringify(response.body)}`);
  };
  return {
    resolve: (savId: number, resolution: string) => post(`/api/sale-sav/${savId}/resolve`, { resolution }),
    close: (savId: number) => post(`/api/sale-sav/${savId}/close`, {}),
    reopen: (savId: number, reason: string) => post(`/api/sale-sav/${savId}/reopen`, { reason }),
    cancel: (savId: number, reason: string) => post(`/api/sale-sav/${savId}/cancel`, { reason }),
  };
};
