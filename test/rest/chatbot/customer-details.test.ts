import { afterEach, beforeEach, describe, it } from 'vitest';
import { cancelSale } from '../../../src/events/sales/cancel-sale.ts';
import { systemContext } from '../../../src/events/command-context.ts';
import { expectJson, importOrder, nowAnswered, order, savRequest, seedCatalog, startChatbotApi, type ChatbotApi } from './chatbot-api.ts';

describe('GET /api/Customer/details/{email}', () => {
  let api: ChatbotApi;
  beforeEach(async () => {
    api = await startChatbotApi();
    await seedCatalog(api);
  });
  afterEach(async () => api.close());

  it('when the customer has orders, it answers the names of the latest order, every order latest first, and every SAV', async () => {
    await importOrder(api);
    await importOrder(
      api,
      order({
        increment_id: '100004513',
        created_at: '2026-10-03T18:30:00+02:00',
        customer: { email: 'claire.martin@example.org', firstname: 'Claire', lastname: 'Martin-Roux' },
      }),
    );
    await importOrder(api, order({ increment_id: '100004514', customer: { email: 'paul.durand@example.org', firstname: 'Paul', lastname: 'Durand' } }));
    await cancelSale(api.runtime.salesDeps, { incrementId: '100004513', reason: 'Annulation demandée par le client' }, systemContext());
    const sav = await api.post('/api/sav', savRequest());

    const response = await api.get('/api/Customer/details/Claire.Martin@Example.org');

    expectJson(response, 200, {
      success: true,
      customer: {
        email: 'claire.martin@example.org',
        firstname: 'Claire',
        lastname: 'Martin-Roux',
        orders: [
          {
            increment_id: '100004513',
            status: 'cancelled',
            created_at: '2026-10-03T18:30:00+02:00',
            order_date: '2026-10-03',
            grand_total: 1407.8,
            currency: 'EUR',
          },
          {
            increment_id: '100004512',
            status: 'processing',
            created_at: '2026-10-02T09:14:00+02:00',
            order_date: '2026-10-02',
            grand_total: 1407.8,
            currency: 'EUR',
          },
        ],
        sav_history: [
          {
            id: sav.body.sav_id,
            sale_ref: '100004512',
            status: 'in_progress',
            status_label: 'En cours de traitement',
            complaint_type: 'Produit endommagé',
            created_at: nowAnswered,
            status_changed_at: nowAnswered,
            resolution: null,
            products: [{ sku: 'CAN-OSLO-3P-GRY', name: 'Canapé 3 places Oslo gris' }],
            files: [],
          },
        ],
      },
    });
  });

  it('when the e-mail is URL-encoded, it is decoded', async () => {
    await importOrder(api);

    const response = await api.get('/api/Customer/details/claire.martin%40example.org');

    expectJson(response, 200, { ...response.body, customer: { ...response.body.customer, email: 'Claire.Martin@example.org', sav_history: [] } });
  });

  it('when no customer has the e-mail, it answers 404 "Client non trouvé"', async () => {
    await importOrder(api);

    const response = await api.get('/api/Customer/details/inconnu@example.org');

    expectJson(response, 404, { success: false, error: 'Client non trouvé', message: "Aucun client trouvé avec l'email inconnu@example.org" });
  });

  it('when the e-mail is malformed, it answers 400 naming the field', async () => {
    const response = await api.get('/api/Customer/details/claire.martin');

    expectJson(response, 400, { success: false, error: 'Paramètres invalides', message: 'Le champ email doit être une adresse e-mail valide' });
  });
});
