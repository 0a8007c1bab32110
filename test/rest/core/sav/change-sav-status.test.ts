import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { savStreamName } from '../../../../src/events/after-sales/events.ts';
import type { Clock } from '../../../../src/events/command-context.ts';
import { saleLogOfSav } from '../../../support/sale-log.ts';
import { expectJson } from '../../chatbot/chatbot-api.ts';
import { zonedTimestamp } from '../../../../src/time/zoned-timestamp.ts';
import { complaint, now, seedSales, startSavApi, type SavApi } from './sav-api.ts';

/** A clock the test moves on, so that each change is dated apart from the creation. */
const steppingClock = (): Clock & { advance: (minutes: number) => void } => {
  let current = new Date(now);
  return { now: () => new Date(current), advance: (minutes) => (current = new Date(current.getTime() + minutes * 60_000)) };
};
const later = (minutes: number) => new Date(new Date(now).getTime() + minutes * 60_000).toISOString();
/** `later(minutes)` as answers write it (in Paris, at the second). */
const answeredLater = (minutes: number) => zonedTimestamp('Europe/Paris')(later(minutes));

const conflict = (savId: number, status: string, message: string) => ({
  success: false,
  error: 'sav_status_conflict',
  message: `SAV ${savId} is ${status}: ${message}`,
  sav_status: status,
});
const invalid = (message: string) => ({ success: false, error: 'invalid_request', message });

describe('POST /api/sale-sav/{id}/resolve|close|reopen|cancel', () => {
  let api: SavApi;
  let clock: ReturnType<typeof steppingClock>;
  let sofa: number;
  beforeEach(async () => {
    clock = steppingClock();
    api = await startSavApi({ clock });
    sofa = (await seedSales(api)).first.sofa;
  });
  afterEach(async () => api.close());

  const open = async (data: Record<string, unknown> = {}) => {
    const response = await api.post('/api/sale-sav/create-for-sale-product', { saleProductId: sofa, data: complaint(data) });
    expect(response.status).toBe(201);
    return response.body.sav_id as number;
  };
  const change = (savId: number | string, verb: string, body: unknown = {}) => api.post(`/api/sale-sav/${savId}/${verb}`, body);
  const recorded = async (savId: number) => (await api.runtime.eventStore.readStream(savStreamName(savId))).map(({ type, data }) => ({ type, data }));
  const head = () => api.runtime.eventStore.headPosition();
  const occupied = async (date: string) => (await api.get(`/api/sale-sav/planning/occupied?date=${date}`)).body.occupied[date];

  it('when a SAV in progress is resolved, it answers 200 with the new status and its time, and records the trimmed resolution', async () => {
    const savId = await open();
    clock.advance(30);

    const response = await change(savId, 'resolve', { resolution: '  Un pied de remplacement a été posé.  ' });

    expectJson(response, 200, {
      success: true,
      message: `SAV ${savId} resolved`,
      sav_id: savId,
      status: 'resolved',
      status_changed_at: answeredLater(30),
      released_appointment: null,
    });
    expect((await recorded(savId)).at(-1)).toEqual({
      type: 'SavResolved',
      data: { savId, resolution: 'Un pied de remplacement a été posé.', resolvedAt: later(30) },
    });
  });

  it('"SAV status `in_progress`" (spec line 115): a SAV opens in_progress, and a reopened one is in_progress again', async () => {
    const savId = await open();
    await change(savId, 'resolve', { resolution: 'Pied remplacé' });
    clock.advance(60);
    expect((await change(savId, 'close')).body.status).toBe('closed');
    clock.advance(60);

    const response = await change(savId, 'reopen', { reason: 'Le pied neuf est de la mauvaise couleur' });

    expectJson(response, 200, {
      success: true,
      message: `SAV ${savId} reopened`,
      sav_id: savId,
      status: 'in_progress',
      status_changed_at: answeredLater(120),
      released_appointment: null,
    });
    expect((await recorded(savId)).map(({ type }) => type)).toEqual(['SavCreated', 'SavResolved', 'SavClosed', 'SavReopened']);
  });

  it('when a SAV is closed with no body at all, it is closed: the body is optional there', async () => {
    const savId = await open();
    await change(savId, 'resolve', { resolution: 'Pied remplacé' });

    const response = await api.request.post(`/api/sale-sav/${savId}/close`).set('Authorization', `Bearer ${api.token}`);

    expect({ status: response.status, sav: response.body.status }).toEqual({ status: 200, sav: 'closed' });
  });

  it('when a SAV with an upcoming appointment is cancelled, the slot is given back: the planning no longer counts it and it can be booked again', async () => {
    const savId = await open({ rdv_date: '2026-10-07', rdv_time: '09:00' });
    await open({ rdv_date: '2026-10-07', rdv_time: '09:00' });
    const full = await api.post('/api/sale-sav/create-for-sale-product', {
      saleProductId: sofa,
      data: complaint({ rdv_date: '2026-10-07', rdv_time: '09:00' }),
    });
    expect({ status: full.status, error: full.body.error }).toEqual({ status: 409, error: 'slot_full' });
    expect(await occupied('2026-10-07')).toEqual({ '09:00': 2 });

    const response = await change(savId, 'cancel', { reason: 'Le client a trouvé une autre solution' });

    expectJson(response, 200, {
      success: true,
      message: `SAV ${savId} cancelled; its appointment of 2026-10-07 at 09:00 was given back to the planning`,
      sav_id: savId,
      status: 'cancelled',
      status_changed_at: answeredLater(0),
      released_appointment: { date: '2026-10-07', time: '09:00' },
    });
    expect(await occupied('2026-10-07')).toEqual({ '09:00': 1 });
    expect(
      (await api.post('/api/sale-sav/create-for-sale-product', { saleProductId: sofa, data: complaint({ rdv_date: '2026-10-07', rdv_time: '09:00' }) })).status,
    ).toBe(201);
  });

  it('when the changes are recorded, the sale log shows each, attributed to the core token', async () => {
    const savId = await open({ rdv_date: '2026-10-07', rdv_time: '09:00' });
    await change(savId, 'cancel', { reason: 'Doublon' });

    const log = (await saleLogOfSav(api.runtime, savId)).filter((entry) => entry.type === 'SavCancelled');
    expect(log.map(({ actor, summary }) => ({ actor, summary }))).toEqual([
      {
        actor: { kind: 'token', group: 'core', label: 'back-office' },
        summary: {
          fr: `SAV ${savId} annulé : Doublon ; rendez-vous du 07/10/2026 à 09:00 libéré`,
          en: `After-sales request ${savId} cancelled: Doublon; its appointment on 2026-10-07 at 09:00 given back`,
        },
      },
    ]);
  });

  describe('when the status does not allow the change, it answers 409 with the status and records nothing', () => {
    const cases: [string, string[], string, unknown, string, string][] = [
      ['resolving a resolved SAV', ['resolve'], 'resolve', { resolution: 'encore' }, 'resolved', 'it cannot be resolved (only a SAV in_progress can be)'],
      ['closing a SAV in progress', [], 'close', {}, 'in_progress', 'it cannot be closed (only a SAV resolved can be)'],
      ['closing a cancelled SAV', ['cancel'], 'close', {}, 'cancelled', 'it cannot be closed (only a SAV resolved can be)'],
      ['reopening a SAV in progress', [], 'reopen', { reason: 'x' }, 'in_progress', 'it cannot be reopened (only a SAV resolved or closed can be)'],
      ['reopening a cancelled SAV', ['cancel'], 'reopen', { reason: 'x' }, 'cancelled', 'it cannot be reopened (only a SAV resolved or closed can be)'],
      ['cancelling a resolved SAV', ['resolve'], 'cancel', { reason: 'x' }, 'resolved', 'it cannot be cancelled (only a SAV in_progress can be)'],
      ['cancelling a cancelled SAV', ['cancel'], 'cancel', { reason: 'x' }, 'cancelled', 'it cannot be cancelled (only a SAV in_progress can be)'],
      ['resolving a closed SAV', ['resolve', 'close'], 'resolve', { resolution: 'x' }, 'closed', 'it cannot be resolved (only a SAV in_progress can be)'],
    ];
    const bodies: Record<string, object> = { resolve: { resolution: 'Fait' }, close: {}, cancel: { reason: 'Doublon' } };

    it.each(cases)('%s', async (_case, before, verb, body, status, message) => {
      const savId = await open();
      for (const step of before) expect((await change(savId, step, bodies[step])).status).toBe(200);
      const position = await head();

      expectJson(await change(savId, verb, body), 409, conflict(savId, status, message));
      expect(await head()).toBe(position);
    });
  });

  it('when 10 resolutions of one SAV arrive at once, one is recorded (200) and 9 are refused (409)', async () => {
    const savId = await open();

    const responses = await Promise.all(Array.from({ length: 10 }, (_, n) => change(savId, 'resolve', { resolution: `Résolution ${n}` })));

    expect(responses.map((response) => response.status).sort()).toEqual([200, ...Array.from({ length: 9 }, () => 409)]);
    expect((await recorded(savId)).map(({ type }) => type)).toEqual(['SavCreated', 'SavResolved']);
  });

  it.each(['resolve', 'close', 'reopen', 'cancel'])('when no SAV has the ID, %s answers 404 and records nothing', async (verb) => {
    const position = await head();

    expectJson(await change(4242, verb, verb === 'resolve' ? { resolution: 'x' } : verb === 'close' ? {} : { reason: 'x' }), 404, {
      success: false,
      error: 'not_found',
      message: 'No SAV with ID 4242',
    });
    expect(await head()).toBe(position);
  });

  describe('when the input cannot be read, it answers 400 naming the field and records nothing', () => {
    it.each([
      ['the ID is not digits', 'abc', 'resolve', { resolution: 'x' }, 'id: must be a SAV ID (a positive integer)'],
      ['the ID is 0', '0', 'resolve', { resolution: 'x' }, 'id: must be a SAV ID (a positive integer)'],
      ['the ID is in exponent form', '1e3', 'cancel', { reason: 'x' }, 'id: must be a SAV ID (a positive integer)'],
      ['the ID is beyond the integer range', '2147483648', 'close', {}, 'id: must be a SAV ID (a positive integer)'],
      ['the resolution is missing', '1', 'resolve', {}, 'resolution: is required'],
      ['the resolution is blank', '1', 'resolve', { resolution: '   ' }, 'resolution: must be a text of 1 to 2000 characters'],
      ['the resolution is too long', '1', 'resolve', { resolution: 'x'.repeat(2001) }, 'resolution: must be a text of 1 to 2000 characters'],
      ['the reason is not a text', '1', 'cancel', { reason: 12 }, 'reason: must be a text of 1 to 2000 characters'],
      ['the reason of a reopening is missing', '1', 'reopen', {}, 'reason: is required'],
      ['a field is unknown (a note sent to close)', '1', 'close', { note: 'fin' }, 'unknown field(s) note'],
      ['a field is misspelt', '1', 'cancel', { reason: 'x', raison: 'y' }, 'unknown field(s) raison'],
      ['the body is an array', '1', 'resolve', [{ resolution: 'x' }], 'The request body must be a JSON object'],
    ])('when %s', async (_case, id, verb, body, message) => {
      await open();
      const position = await head();

      expectJson(await change(id, verb, body), 400, invalid(message));
      expect(await head()).toBe(position);
    });
  });

  it('when the route is called with GET, it answers 405 naming POST', async () => {
    const response = await api.get('/api/sale-sav/1/resolve');

    expect({ status: response.status, allow: response.headers.allow }).toEqual({ status: 405, allow: 'POST' });
  });
});
