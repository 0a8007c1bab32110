import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAccessToken } from '../../../src/events/access/access-token.ts';
import { systemContext } from '../../../src/events/command-context.ts';
import { importSale } from '../../../src/events/sales/import-sale.ts';
import { answerRecords, idempotencyCollection, recordId } from '../../../src/idempotency/answer-records.ts';
import { readModelsCaughtUp } from '../../support/api-harness.ts';
import { anOrder } from '../supplier/supplier-fixtures.ts';
import { startIdempotencyServer, type Caller, type IdempotencyServer } from './idempotency-server.ts';

const acknowledged = { success: true, message: 'Votre produit a bien été acquitté' };
const notFound = { success: false, message: 'Order not found or already processed' };
const day = 24 * 60 * 60 * 1000;

describe('Idempotency-Key: one answer per key and token', () => {
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

  const newLine = async () => {
    const order = anOrder([{ supplier: 'supplier-a', carrier: 'Geodis', wholesalePrice: 50 }]);
    const imported = await importSale(server.runtime().salesDeps, order, systemContext());
    await readModelsCaughtUp(server.runtime());
    return { order, serviceOrderId: `${imported.incrementId}_${imported.saleProductIds[0]!}` };
  };
  const acknowledge = (serviceOrderId: string, key?: string, caller = supplier) =>
    server.post(caller, '/api/supplier-a/acknowledge-sale', { service_order_id: serviceOrderId }, key);

  it('when 30 requests with one key arrive at once, the line is acknowledged once and all 30 get the same answer', async () => {
    const { serviceOrderId } = await newLine();
    const key = randomUUID();
    const answers = await Promise.all(Array.from({ length: 30 }, () => acknowledge(serviceOrderId, key)));
    expect(new Set(answers.map((answer) => `${answer.status} ${answer.text}`))).toEqual(new Set([`200 ${JSON.stringify(acknowledged)}`]));
    expect(answers.filter((answer) => answer.replayed === 'true').length).toBeGreaterThanOrEqual(29);
    expect((await server.eventsUnder(key)).map((event) => event.type)).toEqual(['SaleProductAcknowledged']);
  });

  it('when 30 imports of one order with one key arrive at once, the order is imported once and all answer its 201', async () => {
    const order = anOrder([{ supplier: 'supplier-b', carrier: 'Geodis', wholesalePrice: 50 }]);
    const key = randomUUID();
    const answers = await Promise.all(Array.from({ length: 30 }, () => server.post(core, '/api/api-add-new-order-api-shopping', order, key)));
    expect(new Set(answers.map((answer) => `${answer.status} ${answer.location} ${answer.text}`)).size).toBe(1);
    expect(answers[0]).toMatchObject({ status: 201, body: { created: true } });
    expect((await server.eventsUnder(key)).map((event) => event.type)).toEqual(['SaleImported', 'TrackingNumberAllocated']);
  });

  it('when the service restarts between the request and its retry, the retry is answered the same', async () => {
    const { serviceOrderId } = await newLine();
    const key = randomUUID();
    const first = await acknowledge(serviceOrderId, key);
    await server.restart();
    const retry = await acknowledge(serviceOrderId, key);
    expect(first).toMatchObject({ status: 200, replayed: null, body: acknowledged });
    expect({ status: retry.status, text: retry.text, replayed: retry.replayed }).toEqual({ status: 200, text: first.text, replayed: 'true' });
    expect(await server.eventsUnder(key)).toHaveLength(1);
  }, 120_000);

  it('when the kept answer is lost, the events that carry the key still answer the retry as the first request was', async () => {
    const { serviceOrderId } = await newLine();
    const key = randomUUID();
    await acknowledge(serviceOrderId, key);
    // As if the process had stopped between its append and keeping its answer.
    await server.runtime().readStore.collection(idempotencyCollection).deleteMany({});
    const retry = await acknowledge(serviceOrderId, key);
    expect(retry).toMatchObject({ status: 200, replayed: 'true', body: acknowledged });
    expect(await server.eventsUnder(key)).toHaveLength(1);
  });

  it('when one key comes with another request, it is a 422 in the group envelope, and nothing is recorded', async () => {
    const [one, other] = [await newLine(), await newLine()];
    const key = randomUUID();
    await acknowledge(one.serviceOrderId, key);
    const reused = await acknowledge(other.serviceOrderId, key);
    expect({ status: reused.status, body: reused.body }).toEqual({
      status: 422,
      body: { success: false, message: 'This Idempotency-Key was already used for another request' },
    });
    expect(await server.eventsUnder(key)).toHaveLength(1);
    expect((await acknowledge(other.serviceOrderId)).body).toEqual(acknowledged);

    const lead = { name: 'Claire Martin', email: 'claire.martin@example.org' };
    await server.post(core, '/api/contact-lead', lead, key);
    const coreReused = await server.post(core, '/api/contact-lead', { ...lead, name: 'Paul Martin' }, key);
    expect({ status: coreReused.status, body: coreReused.body }).toEqual({
      status: 422,
      body: { success: false, error: 'Unprocessable Entity', message: 'This Idempotency-Key was already used for another request' },
    });
  });

  it('when the chatbot reuses a key for another SAV, the 422 is in French', async () => {
    const { order } = await newLine();
    const body = { increment_id: order.increment_id, email: order.customer.email, product_sku: 'SKU-1', complaint_name: 'Casse', complaint: 'Cassé' };
    const key = randomUUID();
    expect((await server.post(chatbot, '/api/sav', body, key)).status).toBe(200);
    const reused = await server.post(chatbot, '/api/sav', { ...body, complaint: 'Rayé' }, key);
    expect({ status: reused.status, body: reused.body }).toEqual({
      status: 422,
      body: { success: false, error: 'Clé déjà utilisée', message: 'Cette clé Idempotency-Key a déjà servi pour une autre requête' },
    });
  });

  it('when the key is empty, too long or not printable ASCII, it is a 400 in the group envelope and nothing is recorded', async () => {
    const { serviceOrderId, order } = await newLine();
    for (const key of ['', 'k'.repeat(256), 'clé']) {
      const refused = await acknowledge(serviceOrderId, key);
      expect({ status: refused.status, body: refused.body }).toEqual({
        status: 400,
        body: { success: false, message: 'The Idempotency-Key header must hold 1 to 255 printable ASCII characters' },
      });
    }
    const chatbotRefused = await server.post(chatbot, '/api/sav', { increment_id: order.increment_id }, 'clé');
    expect({ status: chatbotRefused.status, body: chatbotRefused.body }).toEqual({
      status: 400,
      body: { success: false, error: 'Paramètres invalides', message: "L'en-tête Idempotency-Key doit compter de 1 à 255 caractères ASCII imprimables" },
    });
    expect((await acknowledge(serviceOrderId, 'k'.repeat(255))).body).toEqual(acknowledged);
  });

  it('when two tokens use the same key, each has its own answer', async () => {
    const [one, other] = [await newLine(), await newLine()];
    const second = await server.caller('supplier-a');
    const key = 'order-42';
    expect((await acknowledge(one.serviceOrderId, key)).body).toEqual(acknowledged);
    const theOther = await acknowledge(other.serviceOrderId, key, second);
    expect({ status: theOther.status, replayed: theOther.replayed, body: theOther.body }).toEqual({ status: 200, replayed: null, body: acknowledged });
  });

  it('when a request records nothing (a refusal), its retry is evaluated again rather than replayed', async () => {
    const { serviceOrderId } = await newLine();
    const key = randomUUID();
    const unknown = `${serviceOrderId.split('_')[0]!}_999999`;
    expect((await acknowledge(unknown, key)).body).toEqual(notFound);
    const again = await acknowledge(unknown, key);
    expect({ status: again.status, replayed: again.replayed, body: again.body }).toEqual({ status: 404, replayed: null, body: notFound });
  });

  it('without the header nothing changes: a second acknowledgement is the legacy 404', async () => {
    const { serviceOrderId } = await newLine();
    const first = await acknowledge(serviceOrderId);
    const second = await acknowledge(serviceOrderId);
    expect([first.status, first.replayed, second.status, second.text]).toEqual([200, null, 404, JSON.stringify(notFound)]);
  });

  it('when 24 hours have passed, the key is free for another request and the purge deletes the old answer', async () => {
    const [one, other] = [await newLine(), await newLine()];
    const key = randomUUID();
    await acknowledge(one.serviceOrderId, key);
    const records = answerRecords(server.runtime().readStore);
    const id = recordId(parseAccessToken(supplier.token)!.tokenId, key);
    server.advance(day);
    expect(await records.purgeExpired(new Date(Date.parse((await records.find(id))!.expiresAt)))).toBe(0);
    server.advance(1000);
    const later = await acknowledge(other.serviceOrderId, key);
    expect({ status: later.status, replayed: later.replayed, body: later.body }).toEqual({ status: 200, replayed: null, body: acknowledged });
    server.advance(day + 1000);
    // The other specs' answers expire with it.
    expect(await records.purgeExpired(new Date(Date.parse((await records.find(id))!.expiresAt) + 1))).toBeGreaterThanOrEqual(1);
    expect(await records.find(id)).toBeNull();
  });
});
