import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type ApiHarness } from '../../support/api-harness.ts';

type LogLine = { level: number; msg: string; [field: string]: unknown };

/** The service's own JSON log lines, as a log shipper would read them from stdout. */
const collectedLog = () => {
  const lines: LogLine[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line) as LogLine);
      done();
    },
  });
  return { lines, log: pino({ level: 'info' }, stream) };
};

describe('the access log', () => {
  let api: ApiHarness;
  let token: string;
  const { lines, log } = collectedLog();
  beforeAll(async () => {
    api = await startApi({ log });
    token = await api.tokenFor('core', 'storefront');
  });
  afterAll(async () => api.close());

  const requestLines = () => lines.filter((line) => line.msg === 'request');

  it('when a request is answered, one line tells its request id, method, route pattern, status and duration', async () => {
    const before = requestLines().length;
    await api.request.get('/api/get-sale-info-by-increment-id/100004512').set('Authorization', `Bearer ${token}`).set('X-Request-Id', 'req-42');

    const logged = requestLines().slice(before);

    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ requestId: 'req-42', method: 'GET', route: '/api/get-sale-info-by-increment-id/:incrementId', status: 404 });
    expect(logged[0]!.ms).toEqual(expect.any(Number));
  });

  it('when a request carries a token, an e-mail in its query string and a body, none of them is logged', async () => {
    const before = requestLines().length;
    const email = 'elodie.marchand@example.fr';
    await api.request
      .post(`/api/contact-lead?email=${encodeURIComponent(email)}`)
      .set('Authorization', `Bearer ${token}`)
      .send({ name: 'Élodie Marchand', email, project_name: 'Cuisine équipée' });
    await api.request.get(`/api/customer/${email}`).set('Authorization', `Bearer ${token}`);

    const logged = requestLines().slice(before);
    const text = logged.map((line) => JSON.stringify(line)).join('\n');

    expect(logged.map((line) => [line.method, line.route])).toEqual([
      ['POST', '/api/contact-lead'],
      ['GET', 'unmatched'],
    ]);
    expect(text).not.toContain(token.split('.')[1]!);
    expect(text).not.toContain(token.split('.')[0]!);
    expect(text).not.toContain('marchand');
    expect(text).not.toContain('Cuisine');
    expect(Object.keys(logged[0]!).sort()).toEqual(
      ['level', 'method', 'ms', 'msg', 'requestId', 'correlationId', 'route', 'status', 'time', 'pid', 'hostname'].sort(),
    );
  });
});
