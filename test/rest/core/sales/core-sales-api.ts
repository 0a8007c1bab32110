import type { Response } from 'supertest';
import { expect } from 'vitest';
import { catalogProducts } from '../../../../src/events/catalog/catalog-handlers.ts';
import { systemContext, type Clock } from '../../../../src/events/command-context.ts';
import { bookSlot, releaseSlot } from '../../../../src/events/planning/slot-booking.ts';
import type { DeliveryAppointmentDeps } from '../../../../src/events/sales/delivery-appointment.ts';
import { importSale, type OrderImportPayload } from '../../../../src/events/sales/import-sale.ts';
import { readModelsCaughtUp, startApi, type ApiHarness } from '../../../support/api-harness.ts';
import { trackingNumbersOf } from '../../../support/tracking-numbers.ts';

/** The core API on a fresh data directory, a frozen clock (a Monday) and a core token. */

export const now = '2026-10-05T08:00:00.000Z';
/** `now` as every answer writes an instant: at the second, in the planning time zone (Paris) with its offset. */
export const nowAnswered = '2026-10-05T10:00:00+02:00';
export const frozenClock: Clock = { now: () => new Date(now) };

export type CoreSalesApi = ApiHarness & { token: string; get: (path: string) => Promise<Response> };

export const startCoreSalesApi = async (options: { env?: Record<string, string>; clock?: Clock } = {}): Promise<CoreSalesApi> => {
  const api = await startApi({ clock: frozenClock, ...options });
  const token = await api.tokenFor('core', 'back-office');
  return { ...api, token, get: async (path) => api.request.get(path).set('Authorization', `Bearer ${token}`) };
};

/** The status, a JSON content type and exactly this body. */
export const expectJson = (response: Response, status: number, body: unknown): void => {
  expect({ status: response.status, body: response.body }).toEqual({ status, body });
  expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
};

export const notFound = (message: string) => ({ success: false, error: 'not_found', message });
export const invalid = (message: string) => ({ success: false, error: 'invalid_request', message });

/** A sofa drop-shipped by supplier-a (Geodis, from the catalog) and a table from own stock. */
export const seedCatalog = async (api: ApiHarness): Promise<void> => {
  await catalogProducts(
    api.runtime.write,
    [
      { sku: 'CAN-OSLO-3P-GRY', name: 'Canapé 3 places Oslo gris', price: 649, wholesale_price: 389.4, supplier: 'supplier-a', carrier: 'Geodis' },
      { sku: 'TAB-NORD-180', name: 'Table à manger Nord 180 cm', price: 499 },
    ],
    systemContext(),
  );
  await readModelsCaughtUp(api.runtime);
};

/** The sofa (needs a delivery appointment), the table from own stock (Colissimo), two lamps supplier-b ships with DPD. */
export const order = (overrides: Partial<OrderImportPayload> = {}): OrderImportPayload => ({
  source: 'shopping-api',
  increment_id: '100004512',
  created_at: '2026-10-02T09:14:00+02:00',
  currency: 'EUR',
  customer: { email: 'Claire.Martin@example.org', firstname: 'Claire', lastname: 'Martin', phone: '+33612345678' },
  shipping_address: {
    firstname: 'Claire',
    lastname: 'Martin',
    street: ['12 rue des Lilas', 'Bâtiment B'],
    postcode: '69003',
    city: 'Lyon',
    country_id: 'FR',
    telephone: '+33612345678',
  },
  billing_address: {
    firstname: 'Claire',
    lastname: 'Martin',
    company: 'Atelier Martin',
    street: ['3 place Bellecour'],
    postcode: '69002',
    city: 'Lyon',
    country_id: 'FR',
  },
  items: [
    { sku: 'CAN-OSLO-3P-GRY', name: 'Canapé 3 places Oslo gris', qty_ordered: 1, price: 649, requires_appointment: true },
    { sku: 'TAB-NORD-180', name: 'Table à manger Nord 180 cm', qty_ordered: 1, price: 499, supplier: null, carrier: 'Colissimo' },
    { sku: 'LAMP-ARC-BLK', name: 'Lampadaire arc noir', qty_ordered: 2, price: 129.9, wholesale_price: 61.5, supplier: 'supplier-b', carrier: 'DPD' },
  ],
  payment: { method: 'card', status: 'paid', amount_paid: 1407.8 },
  shipping_amount: 0,
  grand_total: 1407.8,
  ...overrides,
});

/** Imports the order; answers its sale product IDs by name, and the tracking number each supplier line was created with. */
export const importOrder = async (api: ApiHarness, payload: OrderImportPayload = order()) => {
  const imported = await importSale(api.runtime.salesDeps, payload, systemContext());
  await readModelsCaughtUp(api.runtime);
  const [sofa, table, lamp] = imported.saleProductIds;
  return { ...imported, sofa: sofa!, table: table!, lamp: lamp!, trackingOf: await trackingNumbersOf(api.runtime, imported.incrementId) };
};

/** Delivery appointments booked in the real delivery planning, as the sale actions book them. */
export const deliveryDeps = (api: ApiHarness): DeliveryAppointmentDeps => {
  const planning = api.runtime.planning;
  return {
    ...api.runtime.salesDeps,
    bookSlot: (booking, context) => bookSlot(planning, booking, context),
    releaseSlot: (booking, context) => releaseSlot(planning, booking, context),
  };
};
