import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemContext } from '../../../../src/events/command-context.ts';
import { configurePlanning, declareHoliday } from '../../../../src/events/planning/planning-handlers.ts';
import { scheduleDeliveryAppointment } from '../../../../src/events/sales/delivery-appointment.ts';
import {
  deliveryDeps,
  expectJson,
  importOrder,
  invalid,
  notFound,
  nowAnswered,
  order,
  seedCatalog,
  startCoreSalesApi,
  type CoreSalesApi,
} from './core-sales-api.ts';

type Slot = { time: string; capacity: number; booked: number; free: number; full: boolean; current: boolean };
type Day = { date: string; weekday: number; available: boolean; slots: Slot[] };

const freeSlot = (time: string, capacity: number): Slot => ({ time, capacity, booked: 0, free: capacity, full: false, current: false });

describe('GET /api/sale-rdv/{id}', () => {
  let api: CoreSalesApi;
  let sale: Awaited<ReturnType<typeof importOrder>>;
  beforeEach(async () => {
    api = await startCoreSalesApi();
    await seedCatalog(api);
    sale = await importOrder(api);
  });
  afterEach(async () => api.close());

  const schedule = async (incrementId: string, date: string, time: string) => {
    const outcome = await scheduleDeliveryAppointment(deliveryDeps(api), { incrementId, date, time }, systemContext());
    expect(outcome.status).toBe('scheduled');
  };

  it('when the planning runs on its defaults, it answers every open day of the next 30 with free slots, Sundays and public holidays left out', async () => {
    const response = await api.get(`/api/sale-rdv/${sale.saleId}`);

    expect(response.status).toBe(200);
    const { dates, available_dates: available, ...config } = response.body as { dates: Day[]; available_dates: string[] };
    expect(config).toEqual({
      sale_id: sale.saleId,
      increment_id: '100004512',
      status: 'processing',
      planning_type: 'delivery',
      timezone: 'Europe/Paris',
      requires_appointment: true,
      range: { start: '2026-10-05', end: '2026-11-04' },
      configuration: { slot_times: ['08:00', '10:00', '13:00', '15:00', '17:00'], capacity_per_slot: 4, working_days: [1, 2, 3, 4, 5, 6] },
      // Toussaint, a Sunday this year.
      holidays: ['2026-11-01'],
      current_appointment: null,
    });
    // 31 days, 4 of them Sundays.
    expect(dates).toHaveLength(27);
    expect(dates.map((day) => day.date)).not.toContain('2026-10-11');
    expect(dates[0]).toEqual({
      date: '2026-10-05',
      weekday: 1,
      available: true,
      slots: ['08:00', '10:00', '13:00', '15:00', '17:00'].map((time) => freeSlot(time, 4)),
    });
    expect(available).toEqual(dates.map((day) => day.date));
  });

  it('when a holiday is declared in the window, its day is neither offered nor available, and it is listed among the holidays', async () => {
    await declareHoliday(api.runtime.write, { date: '2026-10-07', label: 'Inventaire' }, systemContext());

    const response = await api.get(`/api/sale-rdv/${sale.saleId}`);

    expect(response.status).toBe(200);
    expect(response.body.holidays).toEqual(['2026-10-07', '2026-11-01']);
    expect(response.body.dates.map((day: Day) => day.date).slice(0, 4)).toEqual(['2026-10-05', '2026-10-06', '2026-10-08', '2026-10-09']);
    expect(response.body.available_dates).not.toContain('2026-10-07');
    expect(response.body.dates).toHaveLength(26);
  });

  it('when slots are booked to capacity, they show as full; the sale keeps its own slot, and a day with no free place is not available', async () => {
    await configurePlanning(
      api.runtime.write,
      { planningType: 'delivery', slotTimes: ['09:00', '14:00'], capacityPerSlot: 1, workingDays: [1, 2, 3, 4, 5] },
      systemContext(),
    );
    await importOrder(api, order({ increment_id: '100004600' }));
    await importOrder(api, order({ increment_id: '100004601' }));
    await schedule('100004512', '2026-10-06', '14:00');
    await schedule('100004600', '2026-10-06', '09:00');
    await schedule('100004601', '2026-10-08', '09:00');
    await schedule('100004600', '2026-10-08', '14:00'); // moved: its 2026-10-06 09:00 place is given back

    const response = await api.get(`/api/sale-rdv/${sale.saleId}`);

    expect(response.status).toBe(200);
    const days = new Map((response.body.dates as Day[]).map((day) => [day.date, day]));
    expect(response.body.configuration).toEqual({ slot_times: ['09:00', '14:00'], capacity_per_slot: 1, working_days: [1, 2, 3, 4, 5] });
    expect(response.body.current_appointment).toEqual({ planning_type: 'delivery', date: '2026-10-06', time: '14:00', scheduled_at: nowAnswered });
    expect(days.get('2026-10-06')).toEqual({
      date: '2026-10-06',
      weekday: 2,
      available: true,
      slots: [freeSlot('09:00', 1), { time: '14:00', capacity: 1, booked: 1, free: 0, full: true, current: true }],
    });
    expect(days.get('2026-10-08')).toEqual({
      date: '2026-10-08',
      weekday: 4,
      available: false,
      slots: [
        { time: '09:00', capacity: 1, booked: 1, free: 0, full: true, current: false },
        { time: '14:00', capacity: 1, booked: 1, free: 0, full: true, current: false },
      ],
    });
    expect(response.body.available_dates.slice(0, 3)).toEqual(['2026-10-05', '2026-10-06', '2026-10-07']);
    expect(response.body.available_dates).not.toContain('2026-10-08');
    // Saturdays are closed now.
    expect(days.has('2026-10-10')).toBe(false);
  });

  it('when no sale has the ID, it answers 404', async () => {
    expectJson(await api.get('/api/sale-rdv/424242'), 404, notFound('No sale found with ID 424242'));
  });

  it('when the ID is not an integer, it answers 400 naming id', async () => {
    expectJson(await api.get('/api/sale-rdv/12abc'), 400, invalid('id: must be a positive integer'));
  });
});

describe('GET /api/sale-rdv/{id} in the planning time zone', () => {
  it("when it is already tomorrow in the planning's time zone, the window starts there", async () => {
    // 20:00 UTC on Monday 5 October is 09:00 on Tuesday 6 October in Auckland (NZDT, UTC+13).
    const api = await startCoreSalesApi({ env: { PLANNING_TIMEZONE: 'Pacific/Auckland' }, clock: { now: () => new Date('2026-10-05T20:00:00.000Z') } });
    try {
      await seedCatalog(api);
      const sale = await importOrder(api);

      const response = await api.get(`/api/sale-rdv/${sale.saleId}`);

      expect(response.status).toBe(200);
      expect(response.body.timezone).toBe('Pacific/Auckland');
      expect(response.body.range).toEqual({ start: '2026-10-06', end: '2026-11-05' });
      expect(response.body.dates[0].date).toBe('2026-10-06');
    } finally {
      await api.close();
    }
  });
});
