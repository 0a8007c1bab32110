import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type ApiHarness } from '../support/api-harness.ts';

/**
 * Request bodies with a Content-Encoding: gzip, deflate and br bodies are read like plain ones; a body
 * that is not what its encoding says is a 400, an encoding the service does not know a 415, each in
 * the group's envelope, logged as the client's mistake (never a 500 with a stack).
 */
/** superagent would serialize a Buffer as JSON when the type is JSON: the bytes go as they are (its typing says string). */
const asIs = (bytes: Buffer): string => bytes as unknown as string;

describe('request bodies with a Content-Encoding', () => {
  let api: ApiHarness;
  let core: string;
  let chatbot: string;
  beforeAll(async () => {
    api = await startApi();
    core = await api.tokenFor('core');
    chatbot = await api.tokenFor('chatbot');
  });
  afterAll(async () => api.close());

  const lead = Buffer.from(JSON.stringify({ name: 'Élodie Marchand', email: 'elodie.marchand@example.fr' }));
  const postLead = (body: Buffer, encoding: string) =>
    api.request
      .post('/api/contact-lead')
      .set('Authorization', `Bearer ${core}`)
      .set('Content-Type', 'application/json')
      .set('Content-Encoding', encoding)
      .serialize(asIs)
      .send(body);

  it.each([
    ['gzip', gzipSync(lead)],
    ['deflate', deflateSync(lead)],
    ['br', brotliCompressSync(lead)],
  ])('when the body is compressed with %s, it is read: the lead is recorded', async (encoding, body) => {
    const response = await postLead(body, encoding);

    expect([response.status, response.body.success]).toEqual([201, true]);
  });

  it.each(['gzip', 'deflate', 'br'])('when the body claims %s but is not, the answer is 400 in the core envelope and nothing is recorded', async (encoding) => {
    const before = await api.runtime.eventStore.headPosition();

    const response = await postLead(lead, encoding);

    expect([response.status, response.body]).toEqual([
      400,
      { success: false, error: 'Bad Request', message: `The request body is not valid ${encoding} data` },
    ]);
    expect(await api.runtime.eventStore.headPosition()).toBe(before);
  });

  it('when the encoding is unknown, the answer is 415 naming it, in the core envelope', async () => {
    const response = await postLead(lead, 'zstd-custom');

    expect([response.status, response.body]).toEqual([
      415,
      { success: false, error: 'Unsupported Media Type', message: 'The Content-Encoding zstd-custom is not supported (gzip, deflate, br or identity)' },
    ]);
  });

  it('when the chatbot sends an unreadable gzip body, the answer is 400 in its envelope, in French', async () => {
    const response = await api.request
      .post('/api/sav')
      .set('X-API-Token', chatbot)
      .set('Content-Type', 'application/json')
      .set('Content-Encoding', 'gzip')
      .serialize(asIs)
      .send(lead);

    expect([response.status, response.body]).toEqual([
      400,
      { success: false, error: 'Paramètres invalides', message: "Le corps de la requête n'est pas un gzip valide" },
    ]);
  });
});
