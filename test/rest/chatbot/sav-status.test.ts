import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectJson, importOrder, nowAnswered, order, savRequest, seedCatalog, staffChanges, startChatbotApi, type ChatbotApi } from './chatbot-api.ts';

describe('GET /api/customer/sav-status', () => {
  let api: ChatbotApi;
  let sale: Awaited<ReturnType<typeof importOrder>>;
  let sofaSav: number;
  let lampSav: number;
  let otherOrderSav: number;
  beforeEach(async () => {
    api = await startChatbotApi();
    await seedCatalog(api);
    sale = await importOrder(api);
    await importOrder(api, order({ increment_id: '100004513' }));
    await importOrder(api, order({ increment_id: '100004514', customer: { email: 'paul.durand@example.org', firstname: 'Paul', lastname: 'Durand' } }));
    sofaSav = (await api.post('/api/sav', savRequest())).body.sav_id;
    lampSav = (await api.post('/api/sav', savRequest({ product_sku: 'LAMP-ARC-BLK', complaint_name: 'Pièce manquante', complaint: 'Il manque une vis.' }))).body
      .sav_id;
    otherOrderSav = (
      await api.post(
        '/api/sav',
        savRequest({ increment_id: '100004513', request_type: 'delivery_issue', complaint_name: 'Retard de livraison', complaint: 'Toujours rien reçu.' }),
      )
    ).body.sav_id;
  });
  afterEach(async () => api.close());

  const sofa = { sku: 'CAN-OSLO-3P-GRY', name: 'Canapé 3 places Oslo gris' };
  const record = (id: number, saleRef: string, complaintType: string, products: object[]) => ({
    id,
    sale_ref: saleRef,
    status: 'in_progress',
    status_label: 'En cours de traitement',
    complaint_type: complaintType,
    created_at: nowAnswered,
    status_changed_at: nowAnswered,
    resolution: null,
    products,
    files: [],
  });

  it('when a SAV is open, its status is in_progress (spec line 115: "SAV status `in_progress`"), worded "En cours de traitement"', async () => {
    const [sofaRecord] = (await api.get(`/api/customer/sav-status?increment_id=100004512&sale_product_id=${sale.sofa}`)).body.sav_records;

    expect(sofaRecord).toMatchObject({ id: sofaSav, status: 'in_progress', status_label: 'En cours de traitement', resolution: null });
  });

  describe('when staff change the status of SAVs', () => {
    const statusOf = async (savId: number) => {
      const records: { id: number }[] = (await api.get('/api/customer/sav-status?email=claire.martin@example.org')).body.sav_records;
      const { status, status_label, status_changed_at, resolution } = records.find((record) => record.id === savId) as Record<string, unknown>;
      return { status, status_label, status_changed_at, resolution };
    };

    it('when a SAV is resolved, the chatbot shows it "Résolu" with the resolution; once closed, "Clôturé" with the same resolution', async () => {
      const staff = staffChanges(api);
      await staff.resolve(sofaSav, 'Un pied de remplacement vous a été expédié.');
      expect(await statusOf(sofaSav)).toEqual({
        status: 'resolved',
        status_label: 'Résolu',
        status_changed_at: nowAnswered,
        resolution: 'Un pied de remplacement vous a été expédié.',
      });

      await staff.close(sofaSav);
      expect(await statusOf(sofaSav)).toEqual({
        status: 'closed',
        status_label: 'Clôturé',
        status_changed_at: nowAnswered,
        resolution: 'Un pied de remplacement vous a été expédié.',
      });
    });

    it('when a closed SAV is reopened, it is in_progress again, with no resolution, and the reason is not shown to the customer', async () => {
      const staff = staffChanges(api);
      await staff.resolve(lampSav, 'Vis envoyée.');
      await staff.close(lampSav);
      await staff.reopen(lampSav, 'Client mécontent, note interne');

      expect(await statusOf(lampSav)).toEqual({
        status: 'in_progress',
        status_label: 'En cours de traitement',
        status_changed_at: nowAnswered,
        resolution: null,
      });
      const response = await api.get('/api/customer/sav-status?email=claire.martin@example.org');
      expect(response.text).not.toContain('note interne');
    });

    it('when a SAV is cancelled, it is "Annulé"; the reason stays with staff; the other SAVs are unchanged', async () => {
      await staffChanges(api).cancel(otherOrderSav, 'Doublon, note interne');

      expect(await statusOf(otherOrderSav)).toEqual({ status: 'cancelled', status_label: 'Annulé', status_changed_at: nowAnswered, resolution: null });
      expect(await statusOf(sofaSav)).toMatchObject({ status: 'in_progress' });
      expect((await api.get('/api/customer/sav-status?increment_id=100004513')).text).not.toContain('note interne');
    });
  });

  it('when asked by e-mail in any case, it answers every SAV of the customer, across orders, in filing order', async () => {
    const response = await api.get('/api/customer/sav-status?email=CLAIRE.martin@example.org');

    expectJson(response, 200, {
      success: true,
      sav_records: [
        record(sofaSav, '100004512', 'Produit endommagé', [sofa]),
        record(lampSav, '100004512', 'Pièce manquante', [{ sku: 'LAMP-ARC-BLK', name: 'Lampadaire arc noir' }]),
        record(otherOrderSav, '100004513', 'Retard de livraison', [sofa]),
      ],
    });
  });

  it('when asked by increment ID, it answers the SAVs of that order only', async () => {
    const response = await api.get('/api/customer/sav-status?increment_id=100004513');

    expectJson(response, 200, { success: true, sav_records: [record(otherOrderSav, '100004513', 'Retard de livraison', [sofa])] });
  });

  it('when narrowed to a SKU, it answers the SAVs of that product only', async () => {
    const response = await api.get('/api/customer/sav-status?email=claire.martin@example.org&product_sku=CAN-OSLO-3P-GRY');

    expectJson(response, 200, {
      success: true,
      sav_records: [record(sofaSav, '100004512', 'Produit endommagé', [sofa]), record(otherOrderSav, '100004513', 'Retard de livraison', [sofa])],
    });
  });

  it('when narrowed to a sale product ID, it answers the SAVs of that product of the order only', async () => {
    const response = await api.get(`/api/customer/sav-status?increment_id=100004512&sale_product_id=${sale.lamp}`);

    expectJson(response, 200, {
      success: true,
      sav_records: [record(lampSav, '100004512', 'Pièce manquante', [{ sku: 'LAMP-ARC-BLK', name: 'Lampadaire arc noir' }])],
    });
  });

  it('when the customer or the order exists without SAV, it answers an empty list', async () => {
    expectJson(await api.get('/api/customer/sav-status?email=paul.durand@example.org'), 200, { success: true, sav_records: [] });
    expectJson(await api.get('/api/customer/sav-status?increment_id=100004514'), 200, { success: true, sav_records: [] });
    expectJson(await api.get('/api/customer/sav-status?increment_id=100004512&product_sku=TAB-NORD-180'), 200, { success: true, sav_records: [] });
  });

  it('when no order has the increment ID, it answers 404 "Commande non trouvée"', async () => {
    const response = await api.get('/api/customer/sav-status?increment_id=100000999');

    expectJson(response, 404, { success: false, error: 'Commande non trouvée', message: "Aucune commande trouvée avec l'increment_id 100000999" });
  });

  it('when no customer has the e-mail, it answers 404 "Client non trouvé"', async () => {
    const response = await api.get('/api/customer/sav-status?email=inconnu@example.org');

    expectJson(response, 404, { success: false, error: 'Client non trouvé', message: "Aucun client trouvé avec l'email inconnu@example.org" });
  });

  const invalid = (message: string) => ({ success: false, error: 'Paramètres invalides', message });

  it('"exactly one of email or increment_id is required": an empty email= sent beside increment_id counts as absent, and so do empty narrowing fields', async () => {
    const byOrder = await api.get('/api/customer/sav-status?increment_id=100004513');
    const withEmptyFields = await api.get('/api/customer/sav-status?email=&increment_id=100004513&product_sku=&sale_product_id=');

    expect(withEmptyFields.status).toBe(200);
    expect(byOrder.body.sav_records).toHaveLength(1);
    expect(withEmptyFields.body).toEqual(byOrder.body);
    expectJson(await api.get('/api/customer/sav-status?email=&increment_id='), 400, invalid('Email ou increment_id requis'));
  });

  it('when a parameter the route does not know is sent, it answers 400 in French naming it, rather than ignoring it', async () => {
    expectJson(
      await api.get('/api/customer/sav-status?increment_id=100004513&sku=CAN-OSLO-3P-GRY'),
      400,
      invalid('Paramètre(s) inconnu(s) : sku ; les paramètres sont email, increment_id, product_sku, sale_product_id'),
    );
  });

  it.each([
    ['neither email nor increment_id is given', '', 'Email ou increment_id requis'],
    ['only a product narrows it', '?product_sku=CAN-OSLO-3P-GRY', 'Email ou increment_id requis'],
    ['both email and increment_id are given', '?email=claire.martin@example.org&increment_id=100004512', 'Email ou increment_id requis'],
    ['the e-mail is malformed', '?email=claire', 'Le champ email doit être une adresse e-mail valide'],
    ['the increment ID is not digits', '?increment_id=abc', 'Le champ increment_id doit être une suite de 1 à 20 chiffres'],
    [
      'the sale product ID is not a number',
      '?increment_id=100004512&sale_product_id=deux',
      'Le champ sale_product_id doit être un identifiant de produit de commande (entier positif)',
    ],
  ])('when %s, it answers 400', async (_case, query, message) => {
    expectJson(await api.get(`/api/customer/sav-status${query}`), 400, invalid(message));
  });
});
