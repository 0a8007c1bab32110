import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemContext } from '../../../../src/events/command-context.ts';
import { addDays } from '../../../../src/events/planning/calendar-date.ts';
import { declareHoliday } from '../../../../src/events/planning/planning-handlers.ts';
import { bookSlot } from '../../../../src/events/planning/slot-booking.ts';
import { expectJson } from '../../chatbot/chatbot-api.ts';
import { complaint, seedSales, startSavApi, type SavApi } from './sav-api.ts';

const occupiedPath = '/api/sale-sav/planning/occupied';
const daysFrom = (start: string, count: number): string[] => Array.from({ length: count }, (_, offset) => addDays(start, offset));

describe('GET /api/sale-sav/planning/occupied', () => {
  let api: SavApi;
  let sale: Awaited<ReturnType<typeof seedSales>>['first'];
  const savIds: number[] = [];
  // Today is Monday 5 October 2026 in Paris. Bookings: two SAVs on the 7th at 09:00, one on the 8th at
  // 14:00, and a delivery on the 7th at 08:00.
  beforeAll(async () => {
    api = await startSavApi();
    sale = (await seedSales(api)).first;
    for (const [date, time] of [
      ['2026-10-07', '09:00'],
      ['2026-10-07', '09:00'],
      ['2026-10-08', '14:00'],
    ] as const) {
      const response = await api.post('/api/sale-sav/create-for-sale-product', {
        saleProductId: sale.sofa,
        data: complaint({ rdv_date: date, rdv_time: time }),
      });
      expect(response.status).toBe(201);
      savIds.push(response.body.sav_id);
    }
    const booked = await bookSlot(
      api.runtime.planning,
      { planningType: 'delivery', date: '2026-10-07', time: '08:00', ref: { kind: 'sale', saleId: sale.saleId, incrementId: sale.incrementId } },
      systemContext(),
    );
    expect(booked.ok).toBe(true);
    await declareHoliday(api.runtime.write, { date: '2026-10-09', label: 'Inventaire' }, systemContext());
  });
  afterAll(async () => api.close());

  it('"dates (array, comma-separated) ... planning_types (array)": bracketed, indexed, repeated and comma-separated forms answer the same', async () => {
    const forms = [
      '?dates=2026-10-07,2026-10-08&planning_types=sav,delivery',
      '?dates[]=2026-10-07&dates[]=2026-10-08&planning_types[]=sav&planning_types[]=delivery',
      '?dates[0]=2026-10-07&dates[1]=2026-10-08&planning_types[0]=sav&planning_types[1]=delivery',
      '?dates=2026-10-07&dates=2026-10-08&planning_types=sav&planning_types=delivery',
    ];

    const answers = await Promise.all(forms.map((query) => api.get(`${occupiedPath}${query}`)));

    expect(answers.map((response) => response.status)).toEqual([200, 200, 200, 200]);
    expect(answers[0]!.body).toMatchObject({
      dates: ['2026-10-07', '2026-10-08'],
      occupied: { '2026-10-07': { '08:00': 1, '09:00': 2 }, '2026-10-08': { '14:00': 1 } },
    });
    for (const response of answers.slice(1)) expect(response.body).toEqual(answers[0]!.body);
  });

  it('when a parameter the route does not know is sent, it answers 400 naming it rather than ignoring it', async () => {
    const response = await api.get(`${occupiedPath}?day=2026-10-07`);

    expectJson(response, 400, {
      success: false,
      error: 'invalid_request',
      message: 'unknown parameter(s) day; the parameters are date, dates, start_date, end_date, planning_types, complaint',
    });
  });

  it('when no day is given, it answers today and the next 30 days of the SAV planning, with the holidays and the time zone', async () => {
    const response = await api.get(occupiedPath);

    const dates = daysFrom('2026-10-05', 31);
    const occupied = Object.fromEntries(dates.map((date) => [date, {}]));
    occupied['2026-10-07'] = { '09:00': 2 };
    occupied['2026-10-08'] = { '14:00': 1 };
    expectJson(response, 200, {
      success: true,
      dates,
      range: { start: '2026-10-05', end: '2026-11-04' },
      occupied,
      holidays: ['2026-10-09', '2026-11-01'],
      timezone: 'Europe/Paris',
    });
  });

  it('when one date is given, it answers that day only', async () => {
    const response = await api.get(`${occupiedPath}?date=2026-10-07`);

    expectJson(response, 200, {
      success: true,
      dates: ['2026-10-07'],
      range: { start: '2026-10-07', end: '2026-10-07' },
      occupied: { '2026-10-07': { '09:00': 2 } },
      holidays: [],
      timezone: 'Europe/Paris',
    });
  });

  it('when dates are listed, with date, it answers those days in order, once each, and the holidays among them', async () => {
    const response = await api.get(`${occupiedPath}?date=2026-10-08&dates=2026-11-11,2026-10-07,2026-10-08`);

    expect(response.status).toBe(200);
    expect(response.body.dates).toEqual(['2026-10-07', '2026-10-08', '2026-11-11']);
    expect(response.body.range).toEqual({ start: '2026-10-07', end: '2026-11-11' });
    expect(response.body.occupied).toEqual({ '2026-10-07': { '09:00': 2 }, '2026-10-08': { '14:00': 1 }, '2026-11-11': {} });
    expect(response.body.holidays).toEqual(['2026-11-11']);
  });

  it('when a range is given, it answers every day of it', async () => {
    const response = await api.get(`${occupiedPath}?start_date=2026-10-06&end_date=2026-10-08`);

    expect(response.body.dates).toEqual(['2026-10-06', '2026-10-07', '2026-10-08']);
    expect(response.body.occupied).toEqual({ '2026-10-06': {}, '2026-10-07': { '09:00': 2 }, '2026-10-08': { '14:00': 1 } });
  });

  it('when only start_date is given, the range runs 30 days from it', async () => {
    const response = await api.get(`${occupiedPath}?start_date=2026-12-01`);

    expect(response.body.range).toEqual({ start: '2026-12-01', end: '2026-12-31' });
    expect(response.body.holidays).toEqual(['2026-12-25']);
  });

  it('when a SAV being rescheduled is named in complaint, its own booking is not counted', async () => {
    const response = await api.get(`${occupiedPath}?dates=2026-10-07,2026-10-08&complaint=${savIds[0]}`);

    expect(response.body.occupied).toEqual({ '2026-10-07': { '09:00': 1 }, '2026-10-08': { '14:00': 1 } });
  });

  it('when planning types are listed, it counts the bookings of those plannings', async () => {
    const delivery = await api.get(`${occupiedPath}?date=2026-10-07&planning_types=delivery`);
    const both = await api.get(`${occupiedPath}?date=2026-10-07&planning_types=sav,delivery`);

    expect(delivery.body.occupied).toEqual({ '2026-10-07': { '08:00': 1 } });
    expect(both.body.occupied).toEqual({ '2026-10-07': { '08:00': 1, '09:00': 2 } });
  });

  it('when the range covers exactly 366 days, it is answered', async () => {
    const response = await api.get(`${occupiedPath}?start_date=2027-01-01&end_date=2028-01-01`);

    expect(response.status).toBe(200);
    expect(response.body.dates).toHaveLength(366);
  });

  it.each([
    ['an impossible date', 'date=2026-02-30', 'date: must be a date YYYY-MM-DD'],
    ['an impossible date in a list', 'dates=2026-10-07,2026-13-01', 'dates.1: must be a date YYYY-MM-DD'],
    ['an inverted range', 'start_date=2026-10-10&end_date=2026-10-09', 'end_date: must not be before the start date (2026-10-10)'],
    ['an end before today and no start', 'end_date=2026-10-01', 'end_date: must not be before the start date (2026-10-05)'],
    ['a range of 367 days', 'start_date=2027-01-01&end_date=2028-01-02', 'end_date: the range must not exceed 366 days'],
    ['dates 367 days apart', 'dates=2027-01-01,2028-01-02', 'dates: the days must lie within 366 days'],
    ['a date and a range', 'date=2026-10-07&start_date=2026-10-01', 'start_date: cannot be combined with date or dates'],
    ['an unknown planning type', 'planning_types=sav,garage', 'planning_types.1: must be sav or delivery'],
    ['a complaint that is not a SAV ID', 'complaint=abc', 'complaint: must be a SAV ID (a positive integer)'],
  ])('when the query has %s, it answers 400 naming the field', async (_case, query, message) => {
    const response = await api.get(`${occupiedPath}?${query}`);

    expectJson(response, 400, { success: false, error: 'invalid_request', message });
  });
});

describe('the day the occupied-slot query calls today', () => {
  it('when it is already tomorrow in the planning time zone, today is that day, and the zone is the configured one', async () => {
    // 23:30 UTC on 5 October is 6 October in Tokyo.
    const api = await startSavApi({ clock: { now: () => new Date('2026-10-05T23:30:00.000Z') }, env: { PLANNING_TIMEZONE: 'Asia/Tokyo' } });
    try {
      const response = await api.get('/api/sale-sav/planning/occupied');

      expect(response.body.range).toEqual({ start: '2026-10-06', end: '2026-11-05' });
      expect(response.body.timezone).toBe('Asia/Tokyo');
    } finally {
      await api.close();
    }
  });
});
