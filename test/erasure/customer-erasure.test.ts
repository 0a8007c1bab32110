import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintActionToken } from '../../src/events/access/mint-action-token.ts';
import { runLeadNotificationsOnce } from '../../src/jobs/lead-notifications.ts';
import { salesCollection } from '../../src/projections/sales/sale-document.ts';
import { startApi, type ApiHarness } from '../support/api-harness.ts';
import { eventually } from '../support/eventually.ts';
import { pdfText } from '../labels/pdf-tools.ts';
import { collect } from '../rest/files/files-client.ts';
import { frozenClock, nowAnswered, seedCatalog } from '../rest/chatbot/chatbot-api.ts';
import { cli, collectedLog, erasedEmail, erasedOrder, erasedValues, keptOrder, keptValues, valuesIn, valuesOnDisk } from './erasure-fixtures.ts';

/**
 * The right to erasure, end to end on a running service: a customer with two orders (one of which
 * moved), two SAVs (one with an appointment), a contact lead, a label and an invoice rendered and a
 * lead notification written; then `POST /api/customers/erase`. Afterwards no answer, document, export,
 * log line or byte of the data folder holds any of their values; figures and the other customer stay.
 */
describe('erasing a customer (POST /api/customers/erase)', () => {
  let api: ApiHarness;
  const logged = collectedLog();
  const tokens: Record<'core' | 'chatbot' | 'supplier' | 'auditor', string> = { core: '', chatbot: '', supplier: '', auditor: '' };
  const sales: Record<'first' | 'second' | 'kept', { saleId: number; incrementId: string; sofa: number }> = {} as never;
  let dashboardBefore: unknown;
  let erasure: { status: number; body: Record<string, unknown> };

  const core = (path: string) => api.request.get(path).set('Authorization', `Bearer ${tokens.core}`);
  const chatbot = (path: string) => api.request.get(path).set('X-API-Token', tokens.chatbot);
  const bytes = (request: ReturnType<typeof core>) => request.buffer(true).parse((res, done) => collect(res as unknown as http.IncomingMessage, done));
  const graphql = async (query: string) => {
    const response = await api.request.post('/graphql').set('Authorization', `Bearer ${tokens.auditor}`).send({ query });
    expect(response.body.errors).toBeUndefined();
    return response.body.data as Record<string, unknown>;
  };
  const dashboard = () =>
    graphql(
      '{ dashboard(from: "2026-10-01", to: "2026-10-31", granularity: MONTH) { totals { orders revenue averageBasket leads cancellations openSavBacklog refundPaid } } }',
    );
  const importOrder = async (payload: ReturnType<typeof keptOrder>) => {
    const response = await api.request.post('/api/api-add-new-order-api-shopping').set('Authorization', `Bearer ${tokens.core}`).send(payload);
    expect(response.status).toBe(201);
    const sale = (await api.runtime.readStore.collection<{ _id: number; products: { saleProductId: number }[] }>(salesCollection).findOne({
      incrementId: payload.increment_id,
    }))!;
    return { saleId: sale._id, incrementId: payload.increment_id, sofa: sale.products[0]!.saleProductId };
  };
  const label = (sale: { incrementId: string; sofa: number }) =>
    bytes(api.request.get(`/api/files/labels/supplier-a/${sale.incrementId}_${sale.sofa}.pdf`).set('Authorization', `Bearer ${tokens.supplier}`));
  const invoice = (saleId: number) =>
    bytes(core(`/api/sale-invoice/${mintActionToken({ secret: api.runtime.tokenSecret, now: frozenClock.now(), action: 'invoice', saleId }).token}`));

  beforeAll(async () => {
    api = await startApi({ clock: frozenClock, log: logged.log, env: { LOG_LEVEL: 'debug' } });
    tokens.core = await api.tokenFor('core', 'back-office');
    tokens.chatbot = await api.tokenFor('chatbot');
    tokens.supplier = await api.tokenFor('supplier-a');
    tokens.auditor = await api.tokenFor('auditor');
    await seedCatalog(api);
    sales.first = await importOrder(erasedOrder('100007001'));
    sales.second = await importOrder(
      erasedOrder('100007002', { customer: { email: 'CLAIRETTE.EFFACEE@example.org', firstname: 'Clairette', lastname: 'Effacée', phone: '+33699887766' } }),
    );
    sales.kept = await importOrder(keptOrder('100007003'));

    const moved = {
      firstname: 'Clairette',
      lastname: 'Effacée',
      street: ['8 quai Perrache-Ouest'],
      postcode: '69231',
      city: 'Saint-Genis-Glycine',
      country_id: 'FR',
    };
    const address = mintActionToken({
      secret: api.runtime.tokenSecret,
      now: frozenClock.now(),
      action: 'address',
      saleId: sales.first.saleId,
      data: moved,
    }).token;
    // With an Idempotency-Key: its kept answer repeats the new address, and must go with the erasure.
    const moving = await api.request
      .post(`/api/sale-address/${address}`)
      .set('Authorization', `Bearer ${tokens.core}`)
      .set('Idempotency-Key', 'move-clairette-1');
    expect(moving.status).toBe(200);
    expect(moving.body.shipping_address.street).toEqual(['8 quai Perrache-Ouest']);

    const sav = {
      increment_id: '100007001',
      email: erasedEmail,
      product_sku: 'CAN-OSLO-3P-GRY',
      complaint_name: 'Produit endommagé',
      complaint: 'Le pied du canapé Oslo est cassé net',
    };
    expect((await api.request.post('/api/sav').set('X-API-Token', tokens.chatbot).send(sav)).status).toBe(200);
    const withAppointment = {
      saleProductId: sales.second.sofa,
      data: {
        complaint: 'Le pied du canapé Oslo est cassé net',
        complaint_name: 'Produit endommagé',
        sav_type: 'repair',
        rdv_date: '2026-10-07',
        rdv_time: '09:00',
        rdv_phone: '+33699887766',
        rdv_comment: 'Interphone Glycine 12',
      },
    };
    expect((await api.request.post('/api/sale-sav/create-for-sale-product').set('Authorization', `Bearer ${tokens.core}`).send(withAppointment)).status).toBe(
      201,
    );
    for (const lead of [
      { name: 'Clairette Effacée', email: erasedEmail, phone: '+33611223344', project_name: 'Cuisine de Saint-Genis-Glycine' },
      { name: 'Bob Resteplace', email: 'bob.reste@example.org', phone: '+33655443322', project_name: 'Salle de bain de Bob' },
    ]) {
      expect((await api.request.post('/api/contact-lead').set('Authorization', `Bearer ${tokens.core}`).send(lead)).status).toBe(201);
    }
    // What sits on disk made from her data before: a label, an invoice asked for, the team's lead mail.
    expect((await label(sales.first)).status).toBe(200);
    expect(await pdfText((await invoice(sales.first.saleId)).body as Buffer)).toContain('Effacée');
    expect(await runLeadNotificationsOnce(api.runtime)).toMatchObject({ status: 'completed', sent: [expect.any(String), expect.any(String)] });
    expect((await valuesOnDisk(api.dataDir, erasedValues)).length).toBeGreaterThan(0);
    dashboardBefore = await dashboard();

    const response = await api.request
      .post('/api/customers/erase')
      .set('Authorization', `Bearer ${tokens.core}`)
      .send({ email: ' clairette.effacee@EXAMPLE.org ' });
    erasure = { status: response.status, body: response.body };
  }, 120_000);
  afterAll(async () => api?.close());

  it('when a customer is erased, it answers what was erased: both orders, both SAVs, the lead and the files made from them', () => {
    expect(erasure).toEqual({
      status: 200,
      body: {
        success: true,
        status: 'erased',
        erased_at: nowAnswered,
        sales: 2,
        savs: 2,
        leads: 1,
        files_deleted: 2,
        read_models_scrubbed: true,
        message: 'The customer key was deleted: names, e-mail, phones and addresses now read as [erased] everywhere',
      },
    });
  });

  it('when the same customer is erased again, it answers already_erased and records nothing', async () => {
    const head = await api.runtime.eventStore.headPosition();
    const again = await api.request.post('/api/customers/erase').set('Authorization', `Bearer ${tokens.core}`).send({ email: erasedEmail });

    expect({ status: again.status, body: again.body }).toEqual({
      status: 200,
      body: { success: true, status: 'already_erased', erased_at: nowAnswered, message: 'This customer was already erased' },
    });
    expect(await api.runtime.eventStore.headPosition()).toBe(head);
  });

  it('when no order, SAV or lead names the e-mail, it answers 404 customer_not_found; a malformed one, 400; neither records anything', async () => {
    const head = await api.runtime.eventStore.headPosition();
    const unknown = await api.request.post('/api/customers/erase').set('Authorization', `Bearer ${tokens.core}`).send({ email: 'nobody@example.org' });
    const malformed = await api.request.post('/api/customers/erase').set('Authorization', `Bearer ${tokens.core}`).send({ email: 'not-an-email' });

    expect({ status: unknown.status, body: unknown.body }).toEqual({
      status: 404,
      body: { success: false, error: 'customer_not_found', message: 'No personal data is kept for this e-mail address: no order, SAV or lead names it' },
    });
    expect({ status: malformed.status, body: malformed.body }).toEqual({
      status: 400,
      body: { success: false, error: 'invalid_request', message: 'email: must be a valid e-mail address' },
    });
    expect(await api.runtime.eventStore.headPosition()).toBe(head);
  });

  it('when the APIs are asked about her afterwards, no answer holds any of her values, and her sales read [erased]', async () => {
    const answers = [
      await core(`/api/get-sale-info-by-increment-id/${sales.first.incrementId}`),
      await core(`/api/get-sale-info-by-increment-id/${sales.second.incrementId}`),
      await core(`/api/sale/${sales.second.saleId}`),
      await chatbot(`/api/sale/details/${sales.first.incrementId}`),
      await chatbot(`/api/Customer/details/${encodeURIComponent(erasedEmail)}`),
      await chatbot(`/api/customer/sav-status?increment_id=${sales.first.incrementId}`),
      await chatbot(`/api/customer/sav-status?email=${encodeURIComponent(erasedEmail)}`),
      await api.request.get('/api/supplier-a/get-sales').set('Authorization', `Bearer ${tokens.supplier}`),
    ];
    // A 404 of the chatbot repeats the address it was asked about (the legacy text): the client's own input, not kept data.
    const text = answers
      .filter((answer) => answer.status !== 404)
      .map((answer) => answer.text)
      .join('\n');

    expect(valuesIn(text, erasedValues)).toEqual([]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 404, 200, 404, 200]);
    expect(answers[0]!.text).toContain('[erased]');
    expect(answers[0]!.body).toMatchObject({
      grand_total: 1407.8,
      business_customer: { company_name: '[erased]', siren: '443061841', siret: null, vat_number: 'FR64443061841' },
    });
  });

  it('when an auditor reads the event feed, the sale log and the sale as it stood before the erasure, they read [erased]; amounts and products stay', async () => {
    const data = await graphql(`{
      events(first: 1000) { events { type data } }
      first: sale(id: ${sales.first.saleId}) { customer { email firstname lastname phone } shippingAddress { street city postcode } billingAddress { street city } grandTotal log { type summary { fr en } } }
      past: saleAt(id: ${sales.first.saleId}, asOf: { at: "2026-10-05T08:00:00Z" }) { grandTotal customer { email firstname } shippingAddress { street city } products { saleProductId } }
    }`);

    expect(valuesIn(JSON.stringify(data), erasedValues)).toEqual([]);
    expect(data.first).toMatchObject({ customer: { email: '[erased]', firstname: '[erased]', lastname: '[erased]', phone: '[erased]' }, grandTotal: 1407.8 });
    expect(data.past).toMatchObject({ grandTotal: 1407.8, customer: { email: '[erased]' }, shippingAddress: { street: ['[erased]'], city: '[erased]' } });
    const log = (data.first as { log: { type: string; summary: { fr: string } }[] }).log;
    expect(log.find((entry) => entry.type === 'SaleAddressUpdated')?.summary.fr).toBe('Adresse de livraison modifiée : [erased]');
    expect(log.at(-1)).toEqual({
      type: 'CustomerErased',
      summary: { fr: 'Données personnelles du client effacées (RGPD, article 17)', en: "The customer's personal data erased (GDPR, article 17)" },
    });
  });

  it("when her label and invoice are asked for afterwards, they are rendered with [erased] in her place and her company's; its SIREN and the figures stay", async () => {
    const labelText = await pdfText((await label(sales.first)).body as Buffer);
    const invoiceText = await pdfText((await invoice(sales.first.saleId)).body as Buffer);

    expect(valuesIn(labelText + invoiceText, erasedValues)).toEqual([]);
    expect(labelText).toContain('[erased]');
    expect(invoiceText).toContain('CLIENT [erased] SIREN 443 061 841 N° TVA intracommunautaire : FR64443061841 [erased] [erased] [erased]');
    expect(invoiceText).toContain('1 407,80');
  });

  it('when the log is exported with the CLI, no line holds her values', async () => {
    const replay = await cli(api.dataDir, api.storeEnv, 'events', 'replay');

    expect(replay.code).toBe(0);
    expect(replay.stdout).toContain('"type":"CustomerErased"');
    expect(valuesIn(replay.stdout, erasedValues)).toEqual([]);
  });

  it('when every byte of the data folder and every log line are searched, none of her values is found', async () => {
    expect(await valuesOnDisk(api.dataDir, erasedValues)).toEqual([]);
    expect(valuesIn(logged.lines.join('\n'), erasedValues)).toEqual([]);
  });

  it('when the dashboard is read, its totals are those of before; the other customer is untouched', async () => {
    expect(await dashboard()).toEqual(dashboardBefore);
    const kept = await core(`/api/get-sale-info-by-increment-id/${sales.kept.incrementId}`);
    const lead = await api.runtime.readStore.collection('leads').findOne({ email: 'bob.reste@example.org' });
    expect(valuesIn(kept.text + JSON.stringify(lead), keptValues)).toEqual([...keptValues]);
  });

  it('when the read models are rebuilt from the log, they come out exactly as the erasure left them', { timeout: 120_000 }, async () => {
    const collections = ['sales', 'customers', 'savs', 'sav_sale_emails', 'leads', 'supplier_lines'];
    const snapshot = async () =>
      Object.fromEntries(
        await Promise.all(
          collections.map(async (name) => {
            const documents = await api.runtime.readStore.collection(name).find({}).toArray();
            return [name, documents.sort((a, b) => String(a._id).localeCompare(String(b._id)))] as const;
          }),
        ),
      );
    const before = await snapshot();
    const generation = () => Math.min(...api.runtime.projections.status().map((status) => status.generation ?? 0));
    const was = generation();

    await api.runtime.projections.requestRebuild();
    await eventually(() => generation() > was, 60_000);

    expect(await snapshot()).toEqual(before);
    expect(await valuesOnDisk(api.dataDir, erasedValues)).toEqual([]);
  });
});
