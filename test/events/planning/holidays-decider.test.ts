import { describe, expect, it } from 'vitest';
import { fold } from '../../../src/events/decider.ts';
import { defaultHolidayWindow, holidaysBetween, holidaysDecider, type HolidayEvent } from '../../../src/events/planning/holidays-decider.ts';
import { deciderSpec } from '../../support/decider-spec.ts';

const at = '2026-03-02T08:00:00.000Z';
const declared = (date: string, label: string | null = 'Inventaire'): HolidayEvent => ({ type: 'HolidayDeclared', data: { date, label, declaredAt: at } });
const removed = (date: string): HolidayEvent => ({ type: 'HolidayRemoved', data: { date, removedAt: at } });

describe('holiday calendar', () => {
  const { given } = deciderSpec(holidaysDecider);

  it('when a date is not declared, declaring it records it', () => {
    given([])
      .when({ type: 'DeclareHoliday', date: '2026-08-14', label: 'Pont', at })
      .then([declared('2026-08-14', 'Pont')]);
  });

  it('when the date is already declared, nothing happens', () => {
    given([declared('2026-08-14')])
      .when({ type: 'DeclareHoliday', date: '2026-08-14', label: 'Autre', at })
      .thenNothingHappens();
  });

  it('when a declared holiday was removed, declaring it again records it', () => {
    given([declared('2026-08-14'), removed('2026-08-14')])
      .when({ type: 'DeclareHoliday', date: '2026-08-14', label: null, at })
      .then([declared('2026-08-14', null)]);
  });

  it('when the date is a public holiday, declaring it is allowed and recorded', () => {
    given([])
      .when({ type: 'DeclareHoliday', date: '2026-07-14', label: 'Fête nationale', at })
      .then([declared('2026-07-14', 'Fête nationale')]);
  });

  it('when a holiday is declared, removing it records the removal', () => {
    given([declared('2026-08-14')])
      .when({ type: 'RemoveHoliday', date: '2026-08-14', at })
      .then([removed('2026-08-14')]);
  });

  it('when the date is not declared, removing it is refused with holiday_not_declared', () => {
    given([]).when({ type: 'RemoveHoliday', date: '2026-08-14', at }).thenRefused('holiday_not_declared');
    given([declared('2026-08-14'), removed('2026-08-14')])
      .when({ type: 'RemoveHoliday', date: '2026-08-14', at })
      .thenRefused('holiday_not_declared');
  });

  it('when the date is a public holiday, removing it is refused with public_holiday, declared or not', () => {
    given([]).when({ type: 'RemoveHoliday', date: '2027-05-17', at }).thenRefused('public_holiday');
    given([declared('2026-07-14')])
      .when({ type: 'RemoveHoliday', date: '2026-07-14', at })
      .thenRefused('public_holiday');
  });
});

describe('holidays between two dates', () => {
  it('when holidays are declared, they are merged with the public ones, sorted and one per date', () => {
    const state = fold(holidaysDecider, [
      declared('2026-12-24', 'Réveillon'),
      declared('2026-07-14', 'Déclaré'),
      declared('2026-05-15', 'Pont'),
      declared('2026-06-01'),
      removed('2026-06-01'),
    ]);
    expect(holidaysBetween(state, '2026-05-01', '2026-07-31')).toEqual([
      { date: '2026-05-01', label: 'Fête du Travail' },
      { date: '2026-05-08', label: 'Victoire 1945' },
      { date: '2026-05-14', label: 'Ascension' },
      { date: '2026-05-15', label: 'Pont' },
      { date: '2026-05-25', label: 'Lundi de Pentecôte' },
      { date: '2026-07-14', label: 'Fête nationale' },
    ]);
  });

  it('when the window spans two years, the public holidays of both are listed', () => {
    const dates = holidaysBetween(holidaysDecider.initialState(), '2026-12-01', '2027-01-31').map((holiday) => holiday.date);
    expect(dates).toEqual(['2026-12-25', '2027-01-01']);
  });

  it('when no window is given, the default covers the current and the next year', () => {
    const window = defaultHolidayWindow('2026-03-02');
    expect(window).toEqual({ from: '2026-01-01', to: '2027-12-31' });
    expect(holidaysBetween(holidaysDecider.initialState(), window.from, window.to)).toHaveLength(22);
  });
});
