import { afterEach, beforeEach, describe, it } from 'vitest';
import { catalogProducts } from '../../../src/events/catalog/catalog-handlers.ts';
import { systemContext } from '../../../src/events/command-context.ts';
import { expectJson, seedCatalog, startChatbotApi, type ChatbotApi } from './chatbot-api.ts';

describe('GET /api/product/{sku}', () => {
  let api: ChatbotApi;
  beforeEach(async () => {
    api = await startChatbotApi();
    await seedCatalog(api);
  });
  afterEach(async () => api.close());

  it('when the product is catalogued, it answers it with its stock status and without internal data', async () => {
    const response = await api.get('/api/product/CAN-OSLO-3P-GRY');

    expectJson(response, 200, {
      success: true,
      product: {
        sku: 'CAN-OSLO-3P-GRY',
        name: 'Canapé 3 places Oslo gris',
        price: 649,
        description: 'Canapé fixe 3 places, tissu chiné gris, pieds chêne.',
        availability: 'In Stock',
        images: ['https://cdn.example.com/p/can-oslo-3p-gry-1.jpg'],
        stock_status: 'in_stock',
        stock_qty: 42,
        ean14: '03760123450017',
      },
    });
  });

  it('when the product has no description and is on backorder, description is "" and stock_status backorder', async () => {
    const response = await api.get('/api/product/TAB-NORD-180');

    expectJson(response, 200, {
      success: true,
      product: {
        sku: 'TAB-NORD-180',
        name: 'Table à manger Nord 180 cm',
        price: 499,
        description: '',
        availability: 'Backorder',
        images: [],
        stock_status: 'backorder',
        stock_qty: 0,
        ean14: null,
      },
    });
  });

  it('when the catalog gives no availability, it is worded from the stock quantity', async () => {
    await catalogProducts(api.runtime.write, [{ sku: 'POUF-VELOURS', name: 'Pouf velours', price: 79, stock_qty: 0 }], systemContext());

    const response = await api.get('/api/product/POUF-VELOURS');

    expectJson(response, 200, {
      success: true,
      product: {
        sku: 'POUF-VELOURS',
        name: 'Pouf velours',
        price: 79,
        description: '',
        availability: 'Out of Stock',
        images: [],
        stock_status: 'out_of_stock',
        stock_qty: 0,
        ean14: null,
      },
    });
  });

  it('when no product has the SKU, it answers 404 "Produit non trouvé"', async () => {
    const response = await api.get('/api/product/LAMP-ARC-BLK');

    expectJson(response, 404, { success: false, error: 'Produit non trouvé', message: 'Aucun produit trouvé avec le SKU LAMP-ARC-BLK' });
  });

  it('when the SKU is longer than 64 characters, it answers 400 naming the field', async () => {
    const response = await api.get(`/api/product/${'X'.repeat(65)}`);

    expectJson(response, 400, { success: false, error: 'Paramètres invalides', message: 'Le champ sku doit être un SKU de 1 à 64 caractères' });
  });
});
