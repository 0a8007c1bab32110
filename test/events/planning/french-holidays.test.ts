import { describe, expect, it } from 'vitest';
import { easterSunday, frenchPublicHolidays, isFrenchPublicHoliday } from '../../../src/events/planning/french-holidays.ts';

describe('French public holidays', () => {
  it('when the year is 2026, Easter is on 5 April and the eleven holidays follow from it', () => {
    expect(easterSunday(2026)).toBe('2026-04-05');
    expect(frenchPublicHolidays(2026)).toEqual([
      { date: '2026-01-01', label: "Jour de l'an" },
      { date: '2026-04-06', label: 'Lundi de Pâques' },
      { date: '2026-05-01', label: 'Fête du Travail' },
      { date: '2026-05-08', label: 'Victoire 1945' },
      { date: '2026-05-14', label: 'Ascension' },
      { date: '2026-05-25', label: 'Lundi de Pentecôte' },
      { date: '2026-07-14', label: 'Fête nationale' },
      { date: '2026-08-15', label: 'Assomption' },
      { date: '2026-11-01', label: 'Toussaint' },
      { date: '2026-11-11', label: 'Armistice 1918' },
      { date: '2026-12-25', label: 'Noël' },
    ]);
  });

  it('when the year is 2027, Easter is on 28 March and the movable holidays move with it', () => {
    expect(easterSunday(2027)).toBe('2027-03-28');
    const byLabel = Object.fromEntries(frenchPublicHolidays(2027).map((holiday) => [holiday.label, holiday.date]));
    expect(byLabel['Lundi de Pâques']).toBe('2027-03-29');
    expect(byLabel['Ascension']).toBe('2027-05-06');
    expect(byLabel['Lundi de Pentecôte']).toBe('2027-05-17');
    expect(frenchPublicHolidays(2027)).toHaveLength(11);
  });

  it('when Easter falls in April of another year, the algorithm still finds it', () => {
    expect(easterSunday(2024)).toBe('2024-03-31');
    expect(easterSunday(2025)).toBe('2025-04-20');
    expect(easterSunday(2038)).toBe('2038-04-25');
  });

  it('when a date is a public holiday of its own year, it is recognised; an ordinary day is not', () => {
    expect(isFrenchPublicHoliday('2027-05-17')).toBe(true);
    expect(isFrenchPublicHoliday('2026-05-17')).toBe(false);
  });
});
