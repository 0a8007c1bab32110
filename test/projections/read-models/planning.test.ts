import { describe, expect, it } from 'vitest';
import { planningProjection } from '../../../src/projections/planning/planning-projection.ts';
import { findPlanningSettings, listHolidays, occupancy } from '../../../src/projections/planning/queries.ts';
import { openTestReadStore } from '../../support/mongo-backend.ts';
import { project } from './project.ts';
import { buildScenario, savId } from './scenario.ts';

const projections = [planningProjection];

const given = async () => {
  const store = await openTestReadStore();
  await project(store, projections, buildScenario().events);
  return store;
};

describe('planning read models', () => {
  it('when a planning was configured, its settings are kept', async () => {
    expect(await findPlanningSettings(await given(), 'sav')).toEqual({
      _id: 'sav',
      _position: expect.any(Number),
      slotTimes: ['09:00', '14:00'],
      capacityPerSlot: 2,
      workingDays: [1, 2, 3, 4, 5],
      configuredAt: '2025-01-01T00:00:00Z',
    });
  });

  it('when a holiday was declared then removed, only the holidays still declared are listed', async () => {
    const store = await given();
    expect(await listHolidays(store)).toEqual([
      { _id: '2025-04-21', _position: expect.any(Number), label: 'Lundi de Pâques', declared: true, declaredAt: '2025-01-01T00:00:00Z', removedAt: null },
    ]);
    expect(await listHolidays(store, { from: '2025-03-01', to: '2025-04-20' })).toEqual([]);
  });

  it('when slots were booked and one released, a slot keeps its bookings and their count', async () => {
    const store = await given();
    const slots = await store
      .collection('planning_slots')
      .find({}, { sort: { _id: 1 } })
      .toArray();
    expect(slots.map(({ _position: _p, ...slot }) => slot)).toEqual([
      { _id: 'delivery|2025-03-18|09:00', planningType: 'delivery', date: '2025-03-18', time: '09:00', bookings: ['sale:101'], count: 1 },
      { _id: 'sav|2025-03-20|09:00', planningType: 'sav', date: '2025-03-20', time: '09:00', bookings: [], count: 0 },
      { _id: 'sav|2025-03-20|14:00', planningType: 'sav', date: '2025-03-20', time: '14:00', bookings: ['sav:7', 'sav:8'], count: 2 },
    ]);
  });

  it('when occupancy is asked, it counts the places taken per date and time over the given plannings', async () => {
    const store = await given();
    expect(await occupancy(store, { planningTypes: ['sav'], from: '2025-03-01', to: '2025-03-31' })).toEqual({ '2025-03-20': { '14:00': 2 } });
    expect(await occupancy(store, { planningTypes: ['sav', 'delivery'], from: '2025-03-18', to: '2025-03-20' })).toEqual({
      '2025-03-18': { '09:00': 1 },
      '2025-03-20': { '14:00': 2 },
    });
    expect(await occupancy(store, { planningTypes: ['sav', 'delivery'], from: '2025-03-19', to: '2025-03-19' })).toEqual({});
  });

  it('when a SAV is being rescheduled, its own booking does not count', async () => {
    const store = await given();
    expect(await occupancy(store, { planningTypes: ['sav'], from: '2025-03-20', to: '2025-03-20', excludeSavId: savId })).toEqual({
      '2025-03-20': { '14:00': 1 },
    });
  });
});
