import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startGraphqlApi, type GraphqlApi } from './graphql-api.ts';
import { importOrder, seedCatalog } from './seed.ts';

/** The week of Monday 5 October 2026 (Paris): a SAV appointment on Tuesday at 09:00. */

const occupancyQuery = `query($from: LocalDate!, $to: LocalDate!, $types: [PlanningType!]) {
  planningOccupancy(from: $from, to: $to, planningTypes: $types) {
    timezone holidays { date label } occupied { date slots { time taken } }
    plannings { planningType capacityPerSlot days { date open closedBecause slots { time capacity taken free } } }
  } }`;

describe('the planning occupancy and the planning mutations', () => {
  let api: GraphqlApi;
  let core: string;
  beforeEach(async () => {
    api = await startGraphqlApi();
    await seedCatalog(api);
    const sale = await importOrder(api);
    core = await api.tokenFor('core', 'back-office');
    const created = await api.request
      .post('/api/sale-sav/create-for-sale-product')
      .set('Authorization', `Bearer ${core}`)
      .send({
        saleProductId: sale.sofa,
        data: { complaint: 'Pied fendu.', complaint_name: 'Produit endommagé', sav_type: 'repair', rdv_date: '2026-10-06', rdv_time: '09:00' },
      });
    expect(created.status).toBe(201);
  });
  afterEach(async () => api.close());

  const occupancy = async (from: string, to: string, types?: string[]) =>
    (await api.data(occupancyQuery, { from, to, ...(types && { types }) })).planningOccupancy;

  it('when asked for the same days, the taken places and holidays equal those of GET /api/sale-sav/planning/occupied', async () => {
    const rest = await api.request.get('/api/sale-sav/planning/occupied?start_date=2026-10-05&end_date=2026-11-11').set('Authorization', `Bearer ${core}`);
    const graphql = await occupancy('2026-10-05', '2026-11-11');

    const restTaken = Object.entries(rest.body.occupied as Record<string, Record<string, number>>)
      .filter(([, slots]) => Object.keys(slots).length > 0)
      .map(([date, slots]) => ({ date, slots: Object.entries(slots).map(([time, taken]) => ({ time, taken })) }));
    expect(graphql.occupied).toEqual(restTaken);
    expect(graphql.occupied).toEqual([{ date: '2026-10-06', slots: [{ time: '09:00', taken: 1 }] }]);
    expect(graphql.holidays.map((holiday: { date: string }) => holiday.date)).toEqual(rest.body.holidays);
    expect(graphql.holidays).toEqual([
      { date: '2026-11-01', label: 'Toussaint' },
      { date: '2026-11-11', label: 'Armistice 1918' },
    ]);
    expect(graphql.timezone).toBe(rest.body.timezone);
  });

  it('when a slot holds one of its two places, it shows capacity 2, taken 1, free 1; a Saturday is closed with no capacity', async () => {
    const { plannings } = await occupancy('2026-10-06', '2026-10-10');
    const [sav] = plannings;
    expect(sav.planningType).toBe('sav');
    expect(sav.days[0]).toEqual({
      date: '2026-10-06',
      open: true,
      closedBecause: null,
      slots: [
        { time: '09:00', capacity: 2, taken: 1, free: 1 },
        { time: '11:00', capacity: 2, taken: 0, free: 2 },
        { time: '14:00', capacity: 2, taken: 0, free: 2 },
        { time: '16:00', capacity: 2, taken: 0, free: 2 },
      ],
    });
    expect(sav.days[4]).toMatchObject({ date: '2026-10-10', open: false, closedBecause: 'not_a_working_day' });
    expect(sav.days[4].slots.every((slot: { capacity: number }) => slot.capacity === 0)).toBe(true);
  });

  it('when a holiday is declared, it is recorded under the staff token and the planning shows the day closed', async () => {
    const declared = await api.staffData('mutation { declareHoliday(date: "2026-10-08", label: "Inventaire") { status } }');
    expect(declared).toEqual({ declareHoliday: { status: 'declared' } });

    const { holidays, plannings } = await occupancy('2026-10-08', '2026-10-08', ['sav', 'delivery']);
    expect(holidays).toEqual([{ date: '2026-10-08', label: 'Inventaire' }]);
    expect(plannings.map((planning: { days: { closedBecause: string }[] }) => planning.days[0]!.closedBecause)).toEqual(['holiday', 'holiday']);
    const { events } = await api.data('{ events(types: ["HolidayDeclared"]) { events { actor { kind group label } } } }');
    expect(events.events).toEqual([{ actor: { kind: 'token', group: 'core', label: 'back-office' } }]);

    expect(await api.staffData('mutation { declareHoliday(date: "2026-10-08") { status } }')).toEqual({ declareHoliday: { status: 'unchanged' } });
    expect(await api.staffData('mutation { removeHoliday(date: "2026-10-08") { status } }')).toEqual({ removeHoliday: { status: 'removed' } });
    expect((await occupancy('2026-10-08', '2026-10-08')).holidays).toEqual([]);
  });

  it('when a refused command is sent, the error carries the refusal code and nothing is recorded', async () => {
    const head = await api.runtime.eventStore.headPosition();

    const notDeclared = await api.post('mutation { removeHoliday(date: "2026-10-09") { status } }', undefined, api.staffToken);
    const publicHoliday = await api.post('mutation { removeHoliday(date: "2026-11-11") { status } }', undefined, api.staffToken);
    const badCapacity = await api.post(
      'mutation { configurePlanning(planningType: sav, slotTimes: ["09:00"], capacityPerSlot: -1, workingDays: [1]) { status } }',
      undefined,
      api.staffToken,
    );

    expect(notDeclared.body.errors[0]).toMatchObject({ message: 'No holiday is declared on this date', extensions: { code: 'HOLIDAY_NOT_DECLARED' } });
    expect(publicHoliday.body.errors[0]).toMatchObject({ message: 'A French public holiday cannot be removed', extensions: { code: 'PUBLIC_HOLIDAY' } });
    expect(badCapacity.body.errors[0]).toMatchObject({ extensions: { code: 'INVALID_CAPACITY' } });
    expect(await api.runtime.eventStore.headPosition()).toBe(head);
  });

  it('when the SAV planning is configured, the occupancy shows the new slot times and capacity', async () => {
    const configured = await api.staffData(
      'mutation { configurePlanning(planningType: sav, slotTimes: ["09:00", "13:00"], capacityPerSlot: 3, workingDays: [1, 2, 3, 4, 5, 6]) { status } }',
    );
    expect(configured).toEqual({ configurePlanning: { status: 'configured' } });

    const [sav] = (await occupancy('2026-10-06', '2026-10-10')).plannings;
    expect(sav.capacityPerSlot).toBe(3);
    expect(sav.days[0].slots).toEqual([
      { time: '09:00', capacity: 3, taken: 1, free: 2 },
      { time: '13:00', capacity: 3, taken: 0, free: 3 },
    ]);
    expect(sav.days[4]).toMatchObject({ date: '2026-10-10', open: true });
  });

  it('when the range is reversed or longer than 366 days, a BAD_USER_INPUT error names `to`', async () => {
    const reversed = await api.post(occupancyQuery, { from: '2026-10-10', to: '2026-10-01' });
    expect(reversed.body.errors[0]).toMatchObject({ message: 'to: must not be before from (2026-10-10)', extensions: { code: 'BAD_USER_INPUT' } });
    const tooLong = await api.post(occupancyQuery, { from: '2026-01-01', to: '2027-01-02' });
    expect(tooLong.body.errors[0]).toMatchObject({ message: 'to: the range must not exceed 366 days', extensions: { code: 'BAD_USER_INPUT' } });
  });
});
