import { randomUUID } from 'node:crypto';
import type http from 'node:http';
import { sealActionToken } from '../../../../src/events/access/action-token.ts';
import type { ActionKind } from '../../../../src/events/access/events.ts';
import type { OrderImportPayload } from '../../../../src/events/sales/import-sale.ts';
import type { ApiHarness } from '../../../support/api-harness.ts';

/** What the invoice and credit-note specs share: an order, action tokens, PDF bodies as bytes. */

let lastIncrementId = 760_000_000;

export const anOrder = (items: OrderImportPayload['items'] = defaultItems): OrderImportPayload => ({
  increment_id: String(++lastIncrementId),
  created_at: '2026-10-02T09:14:00+02:00',
  customer: { email: 'claire.martin@example.org', firstname: 'Claire', lastname: 'Martin', phone: '+33612345678' },
  shipping_address: { firstname: 'Claire', lastname: 'Martin', street: ['12 rue des Lilas'], postcode: '69003', city: 'Lyon', country_id: 'FR' },
  items,
  payment: { method: 'card', status: 'paid', amount_paid: 968.7 },
  shipping_amount: 59.9,
});

const defaultItems: OrderImportPayload['items'] = [
  { sku: 'CAN-OSLO-3P-GRY', name: 'Canapé 3 places Oslo gris', qty_ordered: 1, price: 649, supplier: null },
  { sku: 'LAMP-ARC-BLK', name: 'Lampadaire arc noir', qty_ordered: 2, price: 129.9, supplier: null },
];

export const mint = (api: ApiHarness, saleId: number, action: ActionKind = 'invoice'): string => {
  const iat = Math.floor(api.runtime.clock.now().getTime() / 1000);
  return sealActionToken({ jti: randomUUID(), action, saleId, iat, exp: iat + 3_600 }, api.runtime.tokenSecret);
};

const collect = (res: http.IncomingMessage, done: (error: Error | null, body: Buffer) => void): void => {
  const chunks: Buffer[] = [];
  res.on('data', (chunk: Buffer) => chunks.push(chunk));
  res.on('end', () => done(null, Buffer.concat(chunks)));
};

/** GET a document of the core group, its body kept as bytes (a PDF, or the JSON of an error). */
export const getDocument = (api: ApiHarness, path: string, bearer: string) =>
  api.request
    .get(path)
    .set('Authorization', `Bearer ${bearer}`)
    .buffer(true)
    .parse((res, done) => collect(res as unknown as http.IncomingMessage, done));

/** The number a PDF response names in its Content-Disposition. */
export const numberOf = (response: { headers: Record<string, string> }): string =>
  /filename="([^"]+)\.pdf"/.exec(response.headers['content-disposition'] ?? '')?.[1] ?? '';
