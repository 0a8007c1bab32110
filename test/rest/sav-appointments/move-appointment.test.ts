import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { savStreamName } from '../../../src/events/after-sales/events.ts';
import { fold } from '../../../src/events/decider.ts';
import { readDomainStream } from '../../../src/events/domain-store.ts';
import { planningDayStreamName } from '../../../src/events/planning/events.ts';
import { planningDayDecider, type PlanningDayEvent } from '../../../src/events/planning/planning-day-decider.ts';
import { expectJson } from '../chatbot/chatbot-api.ts';
import { expectDocumented, type Json } from '../openapi/documented-schema.ts';
import { complaint, seedSales, startSavApi, type SavApi } from '../core/sav/sav-api.ts';

/**
 * Moving a SAV's appointment: the free slots of the SAV planning, and booking or moving the
 * appointment to one of them, for staff (core), for the customer (chatbot, in French) and through
 * GraphQL. The clock stands on Monday 5 October 2026, 10:00 in Paris; the SAV planning runs on its
 * defaults (Monday to Friday, 09:00, 11:00, 14:00 and 16:00, two places per slot).
 */

describe('moving a SAV appointment', () => {
  let api: SavApi;
  let sofa: number;
  let chatbotToken: string;
  let document: Json;
  beforeAll(async () => {
    api = await startSavApi();
    sofa = (await seedSales(api)).first.sofa;
    chatbotToken = await api.tokenFor('chatbot', 'chatbot-test');
    document = (await api.request.get('/openapi.json')).body as Json;
  });
  afterAll(async () => api.close());

  const open = async (rdv?: { date: string; time: string }) => {
    const data = complaint(rdv ? { rdv_date: rdv.date, rdv_time: rdv.time } : {});
    const response = await api.post('/api/sale-sav/create-for-sale-product', { saleProductId: sofa, data });
    expect(response.status).toBe(201);
    return response.body.sav_id as number;
  };
  const move = (savId: number | string, body: unknown) => api.post(`/api/sale-sav/${savId}/appointment`, body);
  const chatbotGet = (path: string) => api.request.get(path).set('X-API-Token', chatbotToken);
  const chatbotPost = (path: string, body: object) => api.request.post(path).set('X-API-Token', chatbotToken).send(body);
  /** Who holds the places of a day of the SAV planning, read from the day's stream. */
  const placesOn = async (date: string) => {
    const { events } = await readDomainStream<PlanningDayEvent>(api.runtime.eventStore, planningDayStreamName('sav', date));
    return fold(planningDayDecider, events)
      .held.map(({ time, booking }) => `${time} ${booking.kind === 'sav' ? booking.savId : booking.saleId}`)
      .sort();
  };
  const head = () => api.runtime.eventStore.headPosition();
  const recordedSince = async (position: number) => (await api.runtime.eventStore.readAll({ fromPosition: position })).map((event) => event.type);
  const graphql = async (query: string, variables: Record<string, unknown>) =>
    (await api.request.post('/graphql').set('Authorization', `Bearer ${api.token}`).send({ query, variables })).body;

  it('when staff ask for the free slots of a period, only bookable slots with a place left are listed, the SAV counting its own place as free', async () => {
    const savId = await open({ date: '2026-10-07', time: '09:00' });
    const other = await open({ date: '2026-10-07', time: '11:00' });
    await open({ date: '2026-10-07', time: '11:00' });

    const response = await api.get(`/api/sale-sav/${savId}/appointment/slots?start_date=2026-10-03&end_date=2026-10-12`);

    expect(response.status).toBe(200);
    expectDocumented(document, '/api/sale-sav/{id}/appointment/slots', 'get', response);
    expect(response.body).toMatchObject({
      success: true,
      sav_id: savId,
      sav_status: 'in_progress',
      appointment: { date: '2026-10-07', time: '09:00' },
      range: { start: '2026-10-03', end: '2026-10-12' },
      timezone: 'Europe/Paris',
    });
    const listed = (response.body.slots as { date: string; time: string; free: number }[]).map((slot) => `${slot.date} ${slot.time} ${slot.free}`);
    // The 3rd and 4th are past, the 10th and 11th a weekend; 11:00 on the 7th is full (two other SAVs).
    expect(listed.filter((slot) => slot.startsWith('2026-10-07'))).toEqual(['2026-10-07 09:00 2', '2026-10-07 14:00 2', '2026-10-07 16:00 2']);
    expect([...new Set(listed.map((slot) => slot.slice(0, 10)))]).toEqual(['2026-10-05', '2026-10-06', '2026-10-07', '2026-10-08', '2026-10-09', '2026-10-12']);
    expect((await api.get(`/api/sale-sav/${other}/appointment/slots?start_date=2026-10-07&end_date=2026-10-07`)).body.slots).toEqual([
      { date: '2026-10-07', time: '09:00', free: 1, capacity: 2 },
      { date: '2026-10-07', time: '11:00', free: 1, capacity: 2 },
      { date: '2026-10-07', time: '14:00', free: 2, capacity: 2 },
      { date: '2026-10-07', time: '16:00', free: 2, capacity: 2 },
    ]);
  });

  it('when staff move an appointment, the new place is taken, the old one given back, and the phone and comment kept', async () => {
    const created = await api.post('/api/sale-sav/create-for-sale-product', {
      saleProductId: sofa,
      data: complaint({ rdv_date: '2026-10-08', rdv_time: '14:00', rdv_phone: '0601020304', rdv_comment: 'Code 1234' }),
    });
    const savId = created.body.sav_id as number;

    const response = await move(savId, { date: '2026-10-08', time: '16:00' });

    expectJson(response, 200, {
      success: true,
      message: `SAV ${savId}'s appointment moved from 2026-10-08 at 14:00 to 2026-10-08 at 16:00`,
      sav_id: savId,
      status: 'scheduled',
      appointment: { date: '2026-10-08', time: '16:00' },
      previous_appointment: { date: '2026-10-08', time: '14:00' },
    });
    expectDocumented(document, '/api/sale-sav/{id}/appointment', 'post', response);
    expect(await placesOn('2026-10-08')).toEqual([`16:00 ${savId}`]);
    expect((await api.runtime.eventStore.readStream(savStreamName(savId))).at(-1)?.data).toMatchObject({
      date: '2026-10-08',
      time: '16:00',
      phone: '0601020304',
      comment: 'Code 1234',
    });
    expect((await move(savId, { date: '2026-10-08', time: '16:00' })).body).toMatchObject({ status: 'unchanged', previous_appointment: null });
  });

  it('when a move is refused (past day, full slot, closed day, holiday, unknown slot, SAV no longer in progress, unknown SAV, bad input), it answers in the core envelope and records nothing', async () => {
    const savId = await open({ date: '2026-10-06', time: '09:00' });
    await open({ date: '2026-10-06', time: '11:00' });
    await open({ date: '2026-10-06', time: '11:00' });
    const resolved = await open({ date: '2026-10-06', time: '14:00' });
    await api.post(`/api/sale-sav/${resolved}/resolve`, { resolution: 'Pied remplacé' });
    const before = await head();

    const refusals = await Promise.all([
      move(savId, { date: '2026-10-02', time: '09:00' }),
      move(savId, { date: '2026-10-06', time: '11:00' }),
      move(savId, { date: '2026-10-10', time: '09:00' }),
      move(savId, { date: '2026-11-11', time: '09:00' }),
      move(savId, { date: '2026-10-06', time: '10:00' }),
      move(resolved, { date: '2026-10-06', time: '16:00' }),
      move(999_999, { date: '2026-10-06', time: '16:00' }),
      move(savId, { date: '2026-10-32', time: '09:00' }),
      move(savId, { date: '2026-10-06', time: '09:00', when: 'soon' }),
    ]);

    expect(refusals.map((response) => [response.status, response.body.error])).toEqual([
      [409, 'in_the_past'],
      [409, 'slot_full'],
      [409, 'closed_day'],
      [409, 'holiday'],
      [409, 'unknown_slot'],
      [409, 'sav_status_conflict'],
      [404, 'not_found'],
      [400, 'invalid_request'],
      [400, 'invalid_request'],
    ]);
    expect(refusals.map((response) => response.body.message)).toEqual([
      '2026-10-02 is in the past: choose a later day',
      'The appointment slot of 2026-10-06 at 11:00 is full; choose another slot',
      'No appointment is given on Saturdays (2026-10-10)',
      '2026-11-11 is a holiday: no appointment is given that day',
      'There is no appointment slot at 10:00 (slots: 09:00, 11:00, 14:00, 16:00)',
      `SAV ${resolved} is resolved: it cannot be given an appointment (only a SAV in_progress can be)`,
      'No SAV with ID 999999',
      'date: must be a date YYYY-MM-DD',
      'unknown field(s) when',
    ]);
    for (const refusal of refusals) expectDocumented(document, '/api/sale-sav/{id}/appointment', 'post', refusal);
    expect(await head()).toBe(before);
    expect(await placesOn('2026-10-06')).toHaveLength(4);
  });

  it('when twenty SAVs race for a slot with two free places, two move there, the others keep their appointment and record nothing, and a released place is bookable again', async () => {
    const days = ['2026-10-13', '2026-10-14', '2026-10-15'];
    const times = ['09:00', '11:00', '14:00', '16:00'];
    const savIds: number[] = [];
    for (let index = 0; index < 20; index++) savIds.push(await open({ date: days[Math.floor(index / 8)]!, time: times[Math.floor(index / 2) % 4]! }));
    const target = { date: '2026-10-16', time: '09:00' };
    const before = await head();

    const responses = await Promise.all(savIds.map((savId) => move(savId, target)));

    const winners = savIds.filter((_, index) => responses[index]!.status === 200);
    expect(winners).toHaveLength(2);
    expect(responses.filter((response) => response.status !== 200).map((response) => [response.status, response.body.error])).toEqual(
      Array.from({ length: 18 }, () => [409, 'slot_full']),
    );
    expect(await placesOn(target.date)).toEqual(winners.map((savId) => `09:00 ${savId}`).sort());
    // Each winner: its new place, its move, its old place given back; the eighteen refusals: nothing.
    expect((await recordedSince(before)).sort()).toEqual(
      ['PlanningSlotBooked', 'PlanningSlotBooked', 'PlanningSlotReleased', 'PlanningSlotReleased', 'SavAppointmentScheduled', 'SavAppointmentScheduled'].sort(),
    );
    const held = (await Promise.all(days.map(placesOn))).flat();
    expect(held).toHaveLength(18);

    const winnerIndex = savIds.indexOf(winners[0]!);
    const released = { date: days[Math.floor(winnerIndex / 8)]!, time: times[Math.floor(winnerIndex / 2) % 4]! };
    const latecomer = await open();
    expect((await move(latecomer, released)).status).toBe(200);
    expect((await move(await open(), target)).body.error).toBe('slot_full');
  });

  it('when a closed SAV is reopened, it books an appointment again', async () => {
    const savId = await open({ date: '2026-10-20', time: '09:00' });
    await api.post(`/api/sale-sav/${savId}/resolve`, { resolution: 'Pied remplacé' });
    await api.post(`/api/sale-sav/${savId}/close`, {});
    expect(await placesOn('2026-10-20')).toEqual([]);
    expect((await move(savId, { date: '2026-10-20', time: '11:00' })).body.error).toBe('sav_status_conflict');
    await api.post(`/api/sale-sav/${savId}/reopen`, { reason: 'Le pied neuf est bancal' });

    const response = await move(savId, { date: '2026-10-20', time: '11:00' });

    expect(response.body).toMatchObject({
      status: 'scheduled',
      message: `SAV ${savId}'s appointment booked on 2026-10-20 at 11:00`,
      previous_appointment: null,
    });
    expect(await placesOn('2026-10-20')).toEqual([`11:00 ${savId}`]);
  });

  describe('for the customer, through the chatbot', () => {
    const email = 'Claire.Martin@example.org';

    it("when the customer gives the SAV's e-mail, the free slots are listed and the appointment moved, in French", async () => {
      const savId = await open({ date: '2026-10-21', time: '09:00' });

      const slots = await chatbotGet(`/api/sav/${savId}/appointment/slots?email=${encodeURIComponent(email)}&start_date=2026-10-21&end_date=2026-10-21`);
      const moved = await chatbotPost(`/api/sav/${savId}/appointment`, { email, date: '2026-10-21', time: '14:00' });

      expect(slots.status).toBe(200);
      expect(slots.body.slots.map((slot: { time: string }) => slot.time)).toEqual(['09:00', '11:00', '14:00', '16:00']);
      expect(moved.status).toBe(200);
      expectDocumented(document, '/api/sav/{savId}/appointment/slots', 'get', slots);
      expectDocumented(document, '/api/sav/{savId}/appointment', 'post', moved);
      expect(moved.body).toMatchObject({ success: true, status: 'scheduled', message: 'Votre rendez-vous a été déplacé le 21/10/2026 à 14:00' });
      expect(await placesOn('2026-10-21')).toEqual([`14:00 ${savId}`]);
    });

    it('when the move is refused, the customer reads why in French, and nothing is recorded', async () => {
      const savId = await open({ date: '2026-10-22', time: '09:00' });
      const cancelled = await open();
      await api.post(`/api/sale-sav/${cancelled}/cancel`, { reason: 'Doublon' });
      await move(await open(), { date: '2026-10-22', time: '16:00' });
      await move(await open(), { date: '2026-10-22', time: '16:00' });
      const before = await head();

      const answers = await Promise.all([
        chatbotPost(`/api/sav/${savId}/appointment`, { email, date: '2026-10-22', time: '16:00' }),
        chatbotPost(`/api/sav/${savId}/appointment`, { email, date: '2026-10-01', time: '16:00' }),
        chatbotPost(`/api/sav/${cancelled}/appointment`, { email, date: '2026-10-22', time: '11:00' }),
        chatbotPost(`/api/sav/${savId}/appointment`, { email: 'someone.else@example.org', date: '2026-10-22', time: '11:00' }),
        chatbotGet(`/api/sav/${savId}/appointment/slots?email=someone.else%40example.org`),
        chatbotPost(`/api/sav/${savId}/appointment`, { email, date: '2026-10-22' }),
        chatbotGet(`/api/sav/${savId}/appointment/slots?email=${encodeURIComponent(email)}&start_date=2026-10-22&end_date=2026-10-01`),
      ]);

      expect(answers.map((answer) => answer.body)).toEqual([
        { success: false, error: 'Créneau complet', message: 'Le créneau du 22/10/2026 à 16:00 est complet ; choisissez un autre créneau' },
        { success: false, error: 'Créneau indisponible', message: 'Le 01/10/2026 est passé : choisissez un jour à venir' },
        { success: false, error: 'Rendez-vous impossible', message: `Le SAV ${cancelled} est annulé : aucun rendez-vous ne peut lui être donné` },
        { success: false, error: 'SAV non trouvé', message: `Aucun SAV avec l'identifiant ${savId}` },
        { success: false, error: 'SAV non trouvé', message: `Aucun SAV avec l'identifiant ${savId}` },
        { success: false, error: 'Paramètres invalides', message: 'Le champ time est requis' },
        { success: false, error: 'Paramètres invalides', message: 'Le champ end_date ne doit pas être avant la date de début (2026-10-22)' },
      ]);
      expect(answers.map((answer) => answer.status)).toEqual([409, 409, 409, 404, 404, 400, 400]);
      for (const [index, answer] of answers.entries()) {
        const slotsAsked = index === 4 || index === 6;
        expectDocumented(document, slotsAsked ? '/api/sav/{savId}/appointment/slots' : '/api/sav/{savId}/appointment', slotsAsked ? 'get' : 'post', answer);
      }
      expect(await head()).toBe(before);
    });
  });

  describe('for staff, through GraphQL', () => {
    it('when staff list the free slots and move the appointment, the SAV answers with its new appointment and the slot given back', async () => {
      const savId = await open({ date: '2026-10-23', time: '09:00' });

      const listed = await graphql('query ($savId: Int!) { savFreeSlots(savId: $savId, from: "2026-10-23", to: "2026-10-23") { date time free } }', { savId });
      const moved = await graphql(
        'mutation ($savId: Int!) { moveSavAppointment(savId: $savId, date: "2026-10-23", time: "16:00") { status previousAppointment { date time } sav { appointment { date time } } } }',
        { savId },
      );
      const refused = await graphql('mutation ($savId: Int!) { moveSavAppointment(savId: $savId, date: "2026-10-03", time: "16:00") { status } }', {
        savId,
      });

      expect(moved.errors).toBeUndefined();
      expect(listed.data.savFreeSlots).toHaveLength(4);
      expect(moved.data.moveSavAppointment).toMatchObject({
        status: 'scheduled',
        previousAppointment: { date: '2026-10-23', time: '09:00' },
        sav: { appointment: { date: '2026-10-23', time: '16:00' } },
      });
      expect(refused.errors[0].extensions.code).toBe('IN_THE_PAST');
      expect(await placesOn('2026-10-23')).toEqual([`16:00 ${savId}`]);
    });
  });
});
