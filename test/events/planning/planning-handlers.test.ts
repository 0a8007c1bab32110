import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { configurePlanning, declareHoliday, loadHolidays, loadPlanning, removeHoliday } from '../../../src/events/planning/planning-handlers.ts';
import { defaultPlanningSettings } from '../../../src/events/planning/planning-defaults.ts';
import { openTestPlanning, type TestPlanning } from './planning-test-deps.ts';

describe('planning settings and holidays', () => {
  let planning: TestPlanning;
  beforeEach(async () => {
    planning = await openTestPlanning();
  });
  afterEach(async () => planning.close());

  it('when nothing is configured, the planning runs on its defaults', async () => {
    const { settings, declaredHolidays } = await loadPlanning(planning.deps, 'delivery');
    expect(settings).toEqual(defaultPlanningSettings.delivery);
    expect(declaredHolidays.declared.size).toBe(0);
  });

  it('when the planning is configured, it loads the configured settings; the same again changes nothing', async () => {
    const settings = { planningType: 'sav' as const, slotTimes: ['08:30', '10:30'], capacityPerSlot: 5, workingDays: [2, 4] };
    expect(await configurePlanning(planning.deps, settings, planning.context)).toMatchObject({ status: 'configured' });
    expect(await configurePlanning(planning.deps, settings, planning.context)).toEqual({ status: 'unchanged' });
    expect((await loadPlanning(planning.deps, 'sav')).settings).toEqual(settings);
    expect((await loadPlanning(planning.deps, 'delivery')).settings).toEqual(defaultPlanningSettings.delivery);
  });

  it('when the settings are invalid, the refusal is returned and nothing is recorded', async () => {
    const result = await configurePlanning(
      planning.deps,
      { planningType: 'sav', slotTimes: ['10:00', '09:00'], capacityPerSlot: 1, workingDays: [1] },
      planning.context,
    );
    expect(result.status === 'refused' ? result.refusal.code : null).toBe('invalid_slot_times');
    expect(await planning.deps.eventStore.headPosition()).toBe(-1);
  });

  it('when holidays are declared and removed, the list merges them with the public holidays of this year and the next', async () => {
    expect(await declareHoliday(planning.deps, { date: '2026-08-14', label: 'Pont' }, planning.context)).toMatchObject({ status: 'declared' });
    expect(await declareHoliday(planning.deps, { date: '2026-08-14', label: 'Pont' }, planning.context)).toEqual({ status: 'unchanged' });
    await declareHoliday(planning.deps, { date: '2026-12-24', label: null }, planning.context);
    expect(await removeHoliday(planning.deps, { date: '2026-12-24' }, planning.context)).toMatchObject({ status: 'removed' });

    const holidays = await loadHolidays(planning.deps);
    expect(holidays).toHaveLength(23);
    expect(holidays.map((holiday) => holiday.date)).toContain('2026-08-14');
    expect(holidays.map((holiday) => holiday.date)).not.toContain('2026-12-24');
    expect(holidays.at(-1)).toEqual({ date: '2027-12-25', label: 'Noël' });
  });

  it('when a removal is refused, the store is unchanged', async () => {
    const notDeclared = await removeHoliday(planning.deps, { date: '2026-08-14' }, planning.context);
    expect(notDeclared.status === 'refused' ? notDeclared.refusal.code : null).toBe('holiday_not_declared');
    const publicHoliday = await removeHoliday(planning.deps, { date: '2026-11-11' }, planning.context);
    expect(publicHoliday.status === 'refused' ? publicHoliday.refusal.code : null).toBe('public_holiday');
    expect(await planning.deps.eventStore.headPosition()).toBe(-1);
  });
});
