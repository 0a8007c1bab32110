import { randomUUID } from 'node:crypto';
import type http from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sealActionToken } from '../../../../src/events/access/action-token.ts';
import { signedActionToken } from '../../../support/signed-action-token.ts';
import type { ActionKind } from '../../../../src/events/access/events.ts';
import { systemContext } from '../../../../src/events/command-context.ts';
import { cancelSale } from '../../../../src/events/sales/cancel-sale.ts';
import { importSale, type OrderImportPayload } from '../../../../src/events/sales/import-sale.ts';
import { startApi, type ApiHarness } from '../../../support/api-harness.ts';
import { pdfText } from '../../../labels/pdf-tools.ts';

/** GET /api/sale-invoice/{token}: the sale's invoice as a PDF, for a signed `invoice` token of that sale. */

const start = new Date('2026-10-03T08:00:00.000Z');
let now = start;
const clock = { now: () => now };
const nowSeconds = (): number => Math.floor(now.getTime() / 1000);

let lastIncrementId = 700_000_000;

const anOrder = (): OrderImportPayload => ({
  increment_id: String(++lastIncrementId),
  created_at: '2026-10-02T09:14:00+02:00',
  customer: { email: 'claire.martin@example.org', firstname: 'Claire', lastname: 'Martin', phone: '+33612345678' },
  shipping_address: { firstname: 'Claire', lastname: 'Martin', street: ['12 rue des Lilas'], postcode: '69003', city: 'Lyon', country_id: 'FR' },
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
    { sku: 'CAN-OSLO-3P-GRY', name: 'Canapé 3 places Oslo gris', qty_ordered: 1, price: 649, supplier: null },
    { sku: 'LAMP-ARC-BLK', name: 'Lampadaire arc noir', qty_ordered: 2, price: 129.9, supplier: null },
  ],
  payment: { method: 'card', status: 'paid', amount_paid: 968.7 },
  shipping_amount: 59.9,
});

const collect = (res: http.IncomingMessage, done: (error: Error | null, body: Buffer) => void): void => {
  const chunks: Buffer[] = [];
  res.on('data', (chunk: Buffer) => chunks.push(chunk));
  res.on('end', () => done(null, Buffer.concat(chunks)));
};

describe('GET /api/sale-invoice/{token}', () => {
  let api: ApiHarness;
  let coreToken: string;

  const mint = (saleId: number, action: ActionKind = 'invoice', lifetimeSeconds = 3_600): string =>
    sealActionToken({ jti: randomUUID(), action, saleId, iat: nowSeconds(), exp: nowSeconds() + lifetimeSeconds }, api.runtime.tokenSecret);

  // Bodies are kept as bytes: a PDF, or the JSON of an error.
  const getInvoice = (token: string, bearer: string | null = coreToken) => {
    const request = api.request
      .get(`/api/sale-invoice/${token}`)
      .buffer(true)
      .parse((res, done) => collect(res as unknown as http.IncomingMessage, done));
    return bearer === null ? request : request.set('Authorization', `Bearer ${bearer}`);
  };
  const jsonOf = (body: unknown): unknown => JSON.parse((body as Buffer).toString('utf8'));

  const importOrder = async (): Promise<{ saleId: number; incrementId: string; saleProductIds: number[] }> =>
    importSale(api.runtime.salesDeps, anOrder(), systemContext());

  beforeAll(async () => {
    api = await startApi({ clock });
    coreToken = await api.tokenFor('core');
  });
  afterAll(async () => api.close());
  beforeEach(() => {
    now = start;
  });

  it('when the token is an invoice token of an existing sale, it answers the invoice as an inline PDF that no cache keeps', async () => {
    const { saleId, incrementId } = await importOrder();
    const response = await getInvoice(mint(saleId));
    expect(response.status).toBe(200);
    const number = /filename="(FA-2026-\d+)\.pdf"/.exec(response.headers['content-disposition'] as string)?.[1];
    expect(number).toMatch(/^FA-2026-[1-9]\d*$/);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toBe(`inline; filename="${number}.pdf"`);
    expect(response.headers['cache-control']).toBe('private, no-store');
    const text = await pdfText(response.body as Buffer);
    expect(text).toContain(`N° ${number}`);
    expect(text).toContain(`Commande n° ${incrementId} du 02/10/2026`);
    // Issued now, the 3rd: the invoice's date is its issue's.
    expect(text).toContain('Date : 03/10/2026');
    expect(text).toContain('Maison & Confort');
    expect(text).toContain('Atelier Martin');
    expect(text).toContain('CAN-OSLO-3P-GRY Canapé 3 places Oslo gris 1 540,83 € 649,00 € 20 % 649,00 €');
    expect(text).toContain('LAMP-ARC-BLK Lampadaire arc noir 2 108,25 € 129,90 € 20 % 259,80 €');
    expect(text).toContain('Frais de livraison');
    expect(text).toContain('Total HT 807,25 €');
    expect(text).toContain('Total TVA 161,45 €');
    expect(text).toContain('Total TTC 968,70 €');
  });

  it('when the same token is used again, it is not used up and the same invoice answers the same bytes', async () => {
    const { saleId } = await importOrder();
    const token = mint(saleId);
    const first = await getInvoice(token);
    const second = await getInvoice(token);
    expect(second.status).toBe(200);
    expect((second.body as Buffer).equals(first.body as Buffer)).toBe(true);
  });

  it('when a product was cancelled before the invoice was first asked for, the invoice marks it, leaves it out of the totals and lists its refund', async () => {
    const { saleId, incrementId, saleProductIds } = await importOrder();
    await cancelSale(api.runtime.salesDeps, { incrementId, saleProductIds: [saleProductIds[1]!], reason: 'Annulation client' }, systemContext());
    const response = await getInvoice(mint(saleId));
    expect(response.status).toBe(200);
    const text = await pdfText(response.body as Buffer);
    expect(text).toContain('LAMP-ARC-BLK Lampadaire arc noir 2 108,25 € 129,90 € 20 % Annulé');
    expect(text).toContain('Total TTC 708,90 €');
    expect(text).toContain('REMBOURSEMENTS');
    expect(text).toContain('03/10/2026 LAMP-ARC-BLK 259,80 € En cours');
  });

  it('when the token was tampered with, it answers 404', async () => {
    const { saleId } = await importOrder();
    const token = mint(saleId);
    const middle = Math.floor(token.length / 2);
    const response = await getInvoice(`${token.slice(0, middle)}${token[middle] === 'A' ? 'B' : 'A'}${token.slice(middle + 1)}`);
    expect(response.status).toBe(404);
    expect(jsonOf(response.body)).toEqual({ success: false, error: 'invalid_action_token', message: 'The action token is not valid' });
  });

  it('when a token of the earlier signed format is intact, the invoice is served; rewritten to another sale, it answers 404', async () => {
    const { saleId } = await importOrder();
    const token = signedActionToken({ jti: randomUUID(), action: 'invoice', saleId, iat: nowSeconds(), exp: nowSeconds() + 3_600 }, api.runtime.tokenSecret);
    expect((await getInvoice(token)).status).toBe(200);

    const [payload, signature] = token.split('.') as [string, string];
    const decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { saleId: number };
    const forged = Buffer.from(JSON.stringify({ ...decoded, saleId: saleId + 1 })).toString('base64url');
    const response = await getInvoice(`${forged}.${signature}`);
    expect(response.status).toBe(404);
    expect(jsonOf(response.body)).toEqual({ success: false, error: 'invalid_action_token', message: 'The action token is not valid' });
  });

  it('when the token is not a token at all, it answers 404 (the core statuses: 401, 404, 500)', async () => {
    const response = await getInvoice('not-a-token');
    expect(response.status).toBe(404);
    expect(jsonOf(response.body)).toEqual({ success: false, error: 'invalid_action_token', message: 'The action token is malformed' });
  });

  it('when the token has expired, it answers 404, though it was valid a second before', async () => {
    const { saleId } = await importOrder();
    const token = mint(saleId, 'invoice', 60);
    now = new Date(start.getTime() + 59_000);
    expect((await getInvoice(token)).status).toBe(200);
    now = new Date(start.getTime() + 60_000);
    const response = await getInvoice(token);
    expect(response.status).toBe(404);
    expect(jsonOf(response.body)).toEqual({ success: false, error: 'invalid_action_token', message: 'The action token has expired' });
  });

  it('when the token was issued for another action, it answers 404', async () => {
    const { saleId } = await importOrder();
    const response = await getInvoice(mint(saleId, 'cancel'));
    expect(response.status).toBe(404);
    expect(jsonOf(response.body)).toEqual({
      success: false,
      error: 'wrong_action_token',
      message: 'This token was issued for the action "cancel", not "invoice"',
    });
  });

  it('when the token names a sale that does not exist, it answers 404', async () => {
    const response = await getInvoice(mint(987_654_321));
    expect(response.status).toBe(404);
    expect(jsonOf(response.body)).toEqual({ success: false, error: 'sale_not_found', message: 'No sale with the ID 987654321' });
  });

  it('when the token is longer than any action token, it answers 400 naming the field', async () => {
    const response = await getInvoice('x'.repeat(2_049));
    expect(response.status).toBe(400);
    expect(jsonOf(response.body)).toMatchObject({ success: false, error: 'invalid_request' });
    expect((jsonOf(response.body) as { message: string }).message).toMatch(/^token: /);
  });

  it('when there is no Bearer token, or one of another group, it answers 401 before looking at the action token', async () => {
    const { saleId } = await importOrder();
    const token = mint(saleId);
    const unauthorized = { success: false, error: 'Unauthorized', message: 'Invalid or missing Bearer token' };
    const missing = await getInvoice(token, null);
    expect(missing.status).toBe(401);
    expect(jsonOf(missing.body)).toEqual(unauthorized);
    for (const group of ['supplier-a', 'chatbot'] as const) {
      const response = await getInvoice(token, await api.tokenFor(group));
      expect(response.status).toBe(401);
      expect(jsonOf(response.body)).toEqual(unauthorized);
    }
  });
});
