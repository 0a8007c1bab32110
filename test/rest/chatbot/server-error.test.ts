import { afterEach, beforeEach, describe, it } from 'vitest';
import { expectJson, importOrder, savRequest, seedCatalog, startChatbotApi, type ChatbotApi } from './chatbot-api.ts';

describe('an unexpected failure behind the chatbot API', () => {
  let api: ChatbotApi;
  beforeEach(async () => {
    api = await startChatbotApi();
    await seedCatalog(api);
    await importOrder(api);
  });
  afterEach(async () => api.close());

  it('when the event store is closed under a SAV creation, it answers 500 in French without any internal detail', async () => {
    // The read models still answer (the order and the token are found); recording the SAV fails.
    await api.runtime.eventStore.close();

    const response = await api.post('/api/sav', savRequest());

    expectJson(response, 500, { success: false, error: 'Erreur serveur', message: "Une erreur inattendue s'est produite" });
  });
});
