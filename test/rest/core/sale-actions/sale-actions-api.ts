import type { Response } from 'supertest';
import { expect } from 'vitest';
import type { ActionTokenPayload } from '../../../../src/events/access/action-token-payload.ts';
import { verifyActionToken } from '../../../../src/events/access/action-token.ts';
import type { ActionKind } from '../../../../src/events/access/events.ts';
import { mintActionToken, type MintActionTokenInput } from '../../../../src/events/access/mint-action-token.ts';
import { systemContext, type Clock } from '../../../../src/events/command-context.ts';
import { importSale, type OrderImportPayload } from '../../../../src/events/sales/import-sale.ts';
import { shipSupplierLine } from '../../../../src/events/sales/supplier-lines.ts';
import { readModelsCaughtUp, startApi, type ApiHarness } from '../../../support/api-harness.ts';

/** The core API on a fresh data directory, a clock frozen on Monday 5 October 2026 (movable for expiry), and a core token. */

export const start = '2026-10-05T08:00:00.000Z';

export type SaleActionsApi = ApiHarness & {
  token: string;
  /** Moves the frozen clock forward. */
  advance: (seconds: number) => void;
  get: (path: string) => Promise<Response>;
  post: (path: string) => Promise<Response>;
  mint: (action: ActionKind, saleId: number, options?: Omit<MintActionTokenInput, 'secret' | 'now' | 'action' | 'saleId'>) => string;
  /** What a token carries, read as the service reads it (tokens are opaque to anyone else). */
  payloadOf: (token: string) => ActionTokenPayload;
  /** The events of a stream, as `{type, data}`. */
  stream: (name: string) => Promise<{ type: string; data: Record<string, unknown> }[]>;
  head: () => Promise<number>;
};

/** What a valid token carries, read with the service's secret. */
export const payloadOf = (api: Pick<ApiHarness, 'runtime'>, token: string): ActionTokenPayload => {
  const verification = verifyActionToken(token, api.runtime.tokenSecret, api.runtime.clock.now());
  if (!verification.ok) throw new Error(`not a valid action token: ${verification.reason}`);
  return verification.payload;
};

export const startSaleActionsApi = async (): Promise<SaleActionsApi> => {
  let now = new Date(start).getTime();
  const clock: Clock = { now: () => new Date(now) };
  const api = await startApi({ clock });
  const token = await api.tokenFor('core', 'storefront');
  return {
    ...api,
    token,
    advance: (seconds) => {
      now += seconds * 1000;
    },
    get: async (path) => api.request.get(path).set('Authorization', `Bearer ${token}`),
    post: async (path) => api.request.post(path).set('Authorization', `Bearer ${token}`),
    mint: (action, saleId, options = {}) => mintActionToken({ secret: api.runtime.tokenSecret, now: clock.now(), action, saleId, ...options }).token,
    payloadOf: (token) => payloadOf(api, token),
    stream: async (name) => (await api.runtime.eventStore.readStream(name)).map(({ type, data }) => ({ type, data })),
    head: () => api.runtime.eventStore.headPosition(),
  };
};

/** The contract's example order, paid: a sofa drop-shipped by supplier-a, a table from own stock, two lamps. */
export const order = (overrides: Partial<OrderImportPayload> = {}): OrderImportPayload => ({
  source: 'shopping-api',
  increment_id: '100004512',
  created_at: '2026-10-02T09:14:00+02:00',
  currency: 'EUR',
  customer: { email: 'claire.martin@example.org', firstname: 'Claire', lastname: 'Martin', phone: '+33612345678' },
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
    {
      sku: 'CAN-OSLO-3P-GRY',
      name: 'Canapé 3 places Oslo gris',
      qty_ordered: 1,
      price: 649,
      supplier: 'supplier-a',
      carrier: 'Geodis',
      requires_appointment: true,
    },
    { sku: 'TAB-NORD-180', name: 'Table à manger Nord 180 cm', qty_ordered: 1, price: 499, supplier: null, carrier: 'Colissimo' },
    { sku: 'LAMP-ARC-BLK', name: 'Lampadaire arc noir', qty_ordered: 2, price: 129.9 },
  ],
  payment: { method: 'card', status: 'paid', amount_paid: 1407.8 },
  shipping_amount: 0,
  grand_total: 1407.8,
  ...overrides,
});

export const importOrder = async (api: ApiHarness, payload: OrderImportPayload = order()) => {
  const imported = await importSale(api.runtime.salesDeps, payload, systemContext());
  await readModelsCaughtUp(api.runtime);
  const [sofa, table, lamp] = imported.saleProductIds;
  return { ...imported, sofa: sofa!, table: table!, lamp: lamp! };
};
export type ImportedOrder = Awaited<ReturnType<typeof importOrder>>;

/** Supplier-a ships the sofa. */
export const shipSofa = async (api: ApiHarness, sale: ImportedOrder): Promise<void> => {
  const shipped = await shipSupplierLine(
    api.runtime.salesDeps,
    { serviceOrderId: `${sale.incrementId}_${sale.sofa}`, supplier: 'supplier-a' },
    systemContext(),
  );
  expect(shipped.status).toBe('shipped');
  await readModelsCaughtUp(api.runtime);
};

/** The status and the body, compared at once so that a failure shows both. */
export const expectAnswer = (response: Response, status: number, body: unknown): void => {
  expect({ status: response.status, body: response.body }).toEqual({ status, body });
};

export const expectRefused = (response: Response, status: number, error: string, message?: string | RegExp): void => {
  expect({ status: response.status, success: response.body.success, error: response.body.error }).toEqual({ status, success: false, error });
  expect(typeof response.body.message).toBe('string');
  if (message !== undefined) expect(response.body.message).toMatch(message);
};
