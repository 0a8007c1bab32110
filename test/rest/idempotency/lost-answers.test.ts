import { readModelsCaughtUp } from '../../support/api-harness.ts';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintActionToken } from '../../../src/events/access/mint-action-token.ts';
import { systemContext } from '../../../src/events/command-context.ts';
import { importSale } from '../../../src/events/sales/import-sale.ts';
import { anOrder } from '../supplier/supplier-fixtures.ts';
import { startIdempotencyServer, type Caller, type IdempotencyServer } from './idempotency-server.ts';

/**
 * Issue: a client whose answer is lost on the network (it hung up before reading it) retries with the
 * same Idempotency-Key and is told what the first request did, marked Idempotent-Replayed, while
 * the log holds that request's events once.
 */
describe('a retry after a lost answer, with the same Idempotency-Key', () => {
  let server: IdempotencyServer;
  let supplier: Caller;
  let core: Caller;
  let chatbot: Caller;
  beforeAll(async () => {
    server = await startIdempotencyServer();
    supplier = await server.caller('supplier-a');
    core = await server.caller('core');
    chatbot = await server.caller('chatbot');
  }, 120_000);
  afterAll(async () => server?.close());

  const importedOrder = async () => {
    const order = anOrder([{ supplier: 'supplier-a', carrier: 'Geodis', wholesalePrice: 50 }, { supplier: null }]);
    const imported = await importSale(server.runtime().salesDeps, order, systemContext());
    await readModelsCaughtUp(server.runtime());
    const [line, ownStock] = imported.saleProductIds as [number, number];
    return { ...imported, order, line, ownStock, serviceOrderId: `${imported.incrementId}_${line}` };
  };

  /** Hangs up on the first request, retries it twice; both retries must give the same bytes. */
  const lostThenRetried = async (caller: Caller, path: string, body: unknown) => {
    const key = `retry-${randomUUID()}`;
    await server.postAndHangUp(caller, path, body, key);
    const retry = await server.post(caller, path, body, key);
    const again = await server.post(caller, path, body, key);
    expect({ status: again.status, text: again.text, replayed: again.replayed }).toEqual({ status: retry.status, text: retry.text, replayed: 'true' });
    expect(retry.replayed).toBe('true');
    const types = (await server.eventsUnder(key)).map((event) => event.type);
    return { retry, types };
  };

  it('when a supplier acknowledges a line, the retry is answered 200 as the acknowledgement was, not 404', async () => {
    const sale = await importedOrder();
    const { retry, types } = await lostThenRetried(supplier, '/api/supplier-a/acknowledge-sale', { service_order_id: sale.serviceOrderId });
    expect({ status: retry.status, body: retry.body }).toEqual({ status: 200, body: { success: true, message: 'Votre produit a bien été acquitté' } });
    expect(types).toEqual(['SaleProductAcknowledged']);
  });

  it('when a supplier ships a line, the retry is answered as the shipment was, not "nothing deliverable"', async () => {
    const sale = await importedOrder();
    const { retry, types } = await lostThenRetried(supplier, '/api/supplier-a/ship-sale', { service_order_id: sale.serviceOrderId });
    expect({ status: retry.status, body: retry.body }).toEqual({ status: 200, body: { success: true, message: 'Votre produit a été expédié avec succès' } });
    expect(types).toEqual(['SaleProductShipped']);
  });

  it('when a core client opens a SAV, the retry answers the same SAV and no second one exists', async () => {
    const sale = await importedOrder();
    const body = { saleProductId: sale.ownStock, data: { complaint: 'Pied cassé à la livraison', complaint_name: 'Casse', sav_type: 'repair' } };
    const { retry, types } = await lostThenRetried(core, '/api/sale-sav/create-for-sale-product', body);
    expect(retry.status).toBe(201);
    expect(retry.body).toMatchObject({ success: true, message: 'SAV created', sav_id: expect.any(Number) });
    expect(types).toEqual(['SavCreated']);
  });

  it('when the chatbot opens a SAV, the retry answers the same SAV, in French, and no second one exists', async () => {
    const sale = await importedOrder();
    const body = {
      increment_id: sale.incrementId,
      email: sale.order.customer.email,
      sale_product_id: sale.line,
      complaint_name: 'Casse',
      complaint: 'Le pied de la table est cassé',
    };
    const { retry, types } = await lostThenRetried(chatbot, '/api/sav', body);
    expect(retry.status).toBe(200);
    expect(retry.body).toMatchObject({ success: true, sav_id: expect.any(Number), message: 'Votre demande SAV a bien été enregistrée' });
    expect(types).toEqual(['SavCreated']);
  });

  it('when a contact lead is sent, the retry answers the same lead and the lead is recorded once', async () => {
    const body = { name: 'Claire Martin', email: 'claire.martin@example.org', project_name: 'Cuisine' };
    const { retry, types } = await lostThenRetried(core, '/api/contact-lead', body);
    expect(retry.status).toBe(201);
    expect(retry.body).toMatchObject({ success: true, lead_id: expect.any(String) });
    expect(types).toEqual(['ContactLeadCaptured']);
  });

  it('when an order is imported, the retry answers 201 "imported" with its Location, not 200 "already imported"', async () => {
    const order = anOrder([{ supplier: 'supplier-b', carrier: 'Geodis', wholesalePrice: 50 }]);
    const { retry, types } = await lostThenRetried(core, '/api/api-add-new-order-api-shopping', order);
    expect(retry.status).toBe(201);
    expect(retry.body).toMatchObject({ success: true, created: true, message: 'Order imported', increment_id: order.increment_id });
    expect(retry.location).toBe(`/api/sale/${String(retry.body.sale_id)}`);
    expect(types).toEqual(['SaleImported', 'TrackingNumberAllocated']);
  });

  it('when a sale is cancelled through its link, the retry answers the cancellation, not "link already used"', async () => {
    const sale = await importedOrder();
    const link = mintActionToken({ secret: server.runtime().tokenSecret, now: new Date(), action: 'cancel', saleId: sale.saleId }).token;
    const { retry, types } = await lostThenRetried(core, `/api/sale-cancel/${link}`, {});
    expect(retry.status).toBe(200);
    expect(retry.body).toMatchObject({ success: true, status: 'cancelled', cancelled_sale_product_ids: [sale.line, sale.ownStock], sale_cancelled: true });
    expect(types.filter((type) => type !== 'ActionTokenConsumed')).toEqual(['SaleProductCancelled', 'SaleProductCancelled', 'SaleCancelled']);
  });
});
