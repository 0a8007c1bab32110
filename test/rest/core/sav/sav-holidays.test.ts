import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemContext } from '../../../../src/events/command-context.ts';
import { frenchPublicHolidays } from '../../../../src/events/planning/french-holidays.ts';
import { declareHoliday, removeHoliday } from '../../../../src/events/planning/planning-handlers.ts';
import { expectJson } from '../../chatbot/chatbot-api.ts';
import { startSavApi, type SavApi } from './sav-api.ts';

describe('GET /api/sav-holidays', () => {
  let api: SavApi;
  beforeEach(async () => {
    api = await startSavApi();
  });
  afterEach(async () => api.close());

  it('"JSON array of holiday dates on which SAV appointments are unavailable": YYYY-MM-DD strings, in date order', async () => {
    const response = await api.get('/api/sav-holidays');

    expect(response.status).toBe(200);
    expect(response.body).toEqual([...frenchPublicHolidays(2026), ...frenchPublicHolidays(2027)].map((holiday) => holiday.date));
    expect(response.body.slice(0, 3)).toEqual(['2026-01-01', '2026-04-06', '2026-05-01']);
  });

  it('when a parameter other than labels is sent, or labels is neither true nor false, it answers 400 instead of ignoring it', async () => {
    const unknown = await api.get('/api/sav-holidays?year=2027');
    const badLabels = await api.get('/api/sav-holidays?labels=yes');

    expectJson(unknown, 400, { success: false, error: 'invalid_request', message: 'unknown parameter(s) year; the parameters are labels' });
    expectJson(badLabels, 400, { success: false, error: 'invalid_request', message: 'labels: must be true or false' });
  });

  it('when labels=true is asked, each holiday comes with its name: the French public holidays of this year and the next, in date order', async () => {
    const response = await api.get('/api/sav-holidays?labels=true');

    expect(response.status).toBe(200);
    expect(response.body).toEqual([...frenchPublicHolidays(2026), ...frenchPublicHolidays(2027)]);
    expect(response.body).toHaveLength(22);
    expect(response.body.slice(0, 3)).toEqual([
      { date: '2026-01-01', label: "Jour de l'an" },
      { date: '2026-04-06', label: 'Lundi de Pâques' },
      { date: '2026-05-01', label: 'Fête du Travail' },
    ]);
  });

  it('when days are declared, they are listed among the public holidays; a declared public holiday keeps its official name; a removed day is gone', async () => {
    const context = systemContext();
    await declareHoliday(api.runtime.write, { date: '2026-12-24', label: 'Fermeture' }, context);
    await declareHoliday(api.runtime.write, { date: '2027-08-02', label: null }, context);
    await declareHoliday(api.runtime.write, { date: '2026-12-25', label: 'Fermeture de Noël' }, context);
    await declareHoliday(api.runtime.write, { date: '2026-10-16', label: 'Inventaire' }, context);
    await removeHoliday(api.runtime.write, { date: '2026-10-16' }, context);
    // Outside the window: the year after next.
    await declareHoliday(api.runtime.write, { date: '2028-01-03', label: 'Trop tard' }, context);

    const response = await api.get('/api/sav-holidays?labels=true');

    expect(response.body).toHaveLength(24);
    const around = response.body.filter((holiday: { date: string }) => holiday.date >= '2026-12-01' && holiday.date <= '2026-12-31');
    expect(around).toEqual([
      { date: '2026-12-24', label: 'Fermeture' },
      { date: '2026-12-25', label: 'Noël' },
    ]);
    expect(response.body).toContainEqual({ date: '2027-08-02', label: null });
    expect(response.body.map((holiday: { date: string }) => holiday.date)).not.toContain('2026-10-16');
    expect(response.body.at(-1)).toEqual({ date: '2027-12-25', label: 'Noël' });
  });
});
