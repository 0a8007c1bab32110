import { describe, expect, it } from 'vitest';
import { startApi } from '../support/api-harness.ts';

describe('the API under test', () => {
  it('when TEST_BACKENDS names production stores, it runs on them, and on the embedded ones otherwise', async () => {
    const api = await startApi();
    try {
      const backends = process.env.TEST_BACKENDS ?? 'embedded';
      expect(api.runtime.config.eventStoreUrl?.startsWith('esdb://') ?? false).toBe(backends === 'production' || backends === 'eventstoredb');
      expect(api.runtime.config.mongodbUrl?.startsWith('mongodb://') ?? false).toBe(backends === 'production' || backends === 'mongodb');
      // A write goes through whichever store that is and is read back through the read models.
      const token = await api.tokenFor('core', 'backends-check');
      const answer = await api.request.get('/api/sav-holidays').set('Authorization', `Bearer ${token}`);
      expect(answer.status).toBe(200);
      expect(await api.runtime.eventStore.headPosition()).toBeGreaterThanOrEqual(0);
    } finally {
      await api.close();
    }
  });
});
