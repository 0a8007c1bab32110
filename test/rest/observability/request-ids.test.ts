import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordedEvent } from '../../../src/events/store/event-store.ts';
import { startApi, type ApiHarness } from '../../support/api-harness.ts';

/**
 * Issue 29: a caller's X-Request-Id became the correlationId of the events it caused, an audit trail
 * a client could write into. The service now chooses every correlation id; the caller's id is kept
 * beside it as `clientRequestId`, and echoed.
 */

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('request ids and the correlation of events', () => {
  let api: ApiHarness;
  let token: string;
  const lines: Record<string, unknown>[] = [];
  beforeAll(async () => {
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    api = await startApi({ log: pino({ level: 'info' }, stream) });
    token = await api.tokenFor('core', 'storefront');
  });
  afterAll(async () => api.close());

  /** Captures a lead (it records LeadCaptured) with the given headers; answers the response and the events it recorded. */
  const captureLead = async (headers: Record<string, string> = {}) => {
    const head = await api.runtime.eventStore.headPosition();
    const request = api.request.post('/api/contact-lead').set('Authorization', `Bearer ${token}`);
    for (const [name, value] of Object.entries(headers)) request.set(name, value);
    const response = await request.send({ name: 'Élodie Marchand', email: 'elodie.marchand@example.fr' });
    expect(response.status).toBe(201);
    const events: RecordedEvent[] = (await api.runtime.eventStore.readAll()).filter((event) => event.position > head);
    expect(events.length).toBeGreaterThan(0);
    return { response, events };
  };

  it('when a request carries X-Request-Id: attacker-chosen, its events are correlated by an id of the service, the caller’s kept apart and echoed', async () => {
    const { response, events } = await captureLead({ 'X-Request-Id': 'attacker-chosen' });

    expect(response.headers['x-request-id']).toBe('attacker-chosen');
    for (const event of events) {
      expect(event.metadata.correlationId).not.toBe('attacker-chosen');
      expect(event.metadata.correlationId).toMatch(uuid);
      expect(event.metadata.clientRequestId).toBe('attacker-chosen');
    }
  });

  it('when two requests carry the same X-Request-Id, their events are correlated apart', async () => {
    const first = await captureLead({ 'X-Request-Id': 'same-id' });
    const second = await captureLead({ 'X-Request-Id': 'same-id' });

    expect(first.events[0]!.metadata.correlationId).not.toBe(second.events[0]!.metadata.correlationId);
  });

  it('when a request carries no X-Request-Id, the id echoed is the correlation id of its events, and no client id is kept', async () => {
    const { response, events } = await captureLead();

    expect(response.headers['x-request-id']).toMatch(uuid);
    expect(events.map((event) => event.metadata.correlationId)).toEqual(events.map(() => response.headers['x-request-id']));
    expect(events.every((event) => !('clientRequestId' in event.metadata))).toBe(true);
  });

  it('when an X-Request-Id is malformed, it is neither echoed nor kept', async () => {
    const { response, events } = await captureLead({ 'X-Request-Id': 'has spaces and <tags>' });

    expect(response.headers['x-request-id']).toBe(events[0]!.metadata.correlationId);
    expect(events[0]!.metadata.clientRequestId).toBeUndefined();
  });

  it('when a request is logged, the line has the id echoed and the correlation id of its events', async () => {
    const before = lines.length;
    const { events } = await captureLead({ 'X-Request-Id': 'req-logged' });

    const logged = lines.slice(before).filter((line) => line.msg === 'request');
    expect(logged).toEqual([expect.objectContaining({ requestId: 'req-logged', correlationId: events[0]!.metadata.correlationId })]);
  });

  it('when a GraphQL mutation carries X-Request-Id, its events are correlated by the service, and the event feed shows both ids', async () => {
    const staff = await api.tokenFor('core', 'back-office');
    const head = await api.runtime.eventStore.headPosition();
    const response = await api.request
      .post('/graphql')
      .set('Authorization', `Bearer ${staff}`)
      .set('X-Request-Id', 'attacker-chosen')
      .send({ query: 'mutation { declareHoliday(date: "2026-12-24", label: "Réveillon") { status } }' });
    expect(response.body.errors).toBeUndefined();

    const auditor = await api.tokenFor('auditor');
    const feed = await api.request
      .post('/graphql')
      .set('Authorization', `Bearer ${auditor}`)
      .send({ query: `{ events(after: ${head}, first: 10) { events { type correlationId clientRequestId } } }` });
    const [declared] = feed.body.data.events.events;
    expect(declared).toEqual({ type: 'HolidayDeclared', correlationId: expect.stringMatching(uuid), clientRequestId: 'attacker-chosen' });
  });
});
