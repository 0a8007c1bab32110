import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueAccessToken } from '../../src/events/access/access-token-handlers.ts';
import { systemContext } from '../../src/events/command-context.ts';
import type { EventStore } from '../../src/events/store/event-store.ts';
import { loadConfig } from '../../src/config/config.ts';
import { openEventStore } from '../../src/runtime.ts';
import { startApi, type ApiHarness } from '../support/api-harness.ts';

/**
 * A token issued by another process (the CLI, on the same data folder) works on the very next
 * request: the server would otherwise see that process's append only at its next look at the log.
 */
describe('a token issued beside the running server', () => {
  let api: ApiHarness;
  let cli: EventStore;
  beforeAll(async () => {
    api = await startApi();
    // The CLI's own connection to the server's log (the embedded file, or EventStoreDB with TEST_BACKENDS):
    // its appends reach the server's engine only when that reads the log again.
    cli = await openEventStore(loadConfig({ DATA_DIR: api.dataDir, ...api.storeEnv }));
  });
  afterAll(async () => {
    await cli?.close();
    await api?.close();
  });

  it('when it is used at once, the first request is answered, and a made-up one still gets 401', async () => {
    for (let round = 0; round < 5; round++) {
      const issued = await issueAccessToken({ eventStore: cli, clock: { now: () => new Date() } }, { group: 'supplier-a' }, systemContext());

      const response = await api.request.get('/api/supplier-a/get-sales').set('Authorization', `Bearer ${issued.token}`);

      expect(response.status).toBe(200);
    }
    const madeUp = await api.request
      .get('/api/supplier-a/get-sales')
      .set('Authorization', 'Bearer 0123456789abcdef.bm90LWEtc2VjcmV0LWF0LWFsbC1qdXN0LWEtdGVzdC12YWx1ZQ');
    expect(madeUp.status).toBe(401);
  });
});
