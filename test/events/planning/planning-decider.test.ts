import { describe, it } from 'vitest';
import { planningDecider, type ConfigurePlanning } from '../../../src/events/planning/planning-decider.ts';
import { defaultPlanningSettings } from '../../../src/events/planning/planning-defaults.ts';
import { deciderSpec } from '../../support/decider-spec.ts';

const at = '2026-03-02T08:00:00.000Z';
const configure = (settings: Partial<ConfigurePlanning> = {}): ConfigurePlanning => ({
  type: 'ConfigurePlanning',
  planningType: 'sav',
  slotTimes: ['09:30', '13:30'],
  capacityPerSlot: 3,
  workingDays: [1, 2, 3],
  at,
  ...settings,
});

describe('planning settings', () => {
  const { given } = deciderSpec(planningDecider);

  it('when nothing is configured, new settings are recorded', () => {
    given([])
      .when(configure())
      .then([
        {
          type: 'PlanningConfigured',
          data: { planningType: 'sav', slotTimes: ['09:30', '13:30'], capacityPerSlot: 3, workingDays: [1, 2, 3], configuredAt: at },
        },
      ]);
  });

  it('when the working days are given out of order, they are recorded sorted', () => {
    given([])
      .when(configure({ workingDays: [5, 1, 3] }))
      .then([
        {
          type: 'PlanningConfigured',
          data: { planningType: 'sav', slotTimes: ['09:30', '13:30'], capacityPerSlot: 3, workingDays: [1, 3, 5], configuredAt: at },
        },
      ]);
  });

  it('when the same settings are configured again, nothing happens', () => {
    given([
      {
        type: 'PlanningConfigured',
        data: { planningType: 'sav', slotTimes: ['09:30', '13:30'], capacityPerSlot: 3, workingDays: [1, 2, 3], configuredAt: at },
      },
    ])
      .when(configure({ workingDays: [3, 2, 1] }))
      .thenNothingHappens();
  });

  it('when nothing is configured and the defaults are configured, nothing happens', () => {
    given([])
      .when(configure({ ...defaultPlanningSettings.delivery, planningType: 'delivery' }))
      .thenNothingHappens();
  });

  it('when a capacity of zero is configured, it is recorded (the planning takes no booking)', () => {
    given([])
      .when(configure({ capacityPerSlot: 0 }))
      .then([
        {
          type: 'PlanningConfigured',
          data: { planningType: 'sav', slotTimes: ['09:30', '13:30'], capacityPerSlot: 0, workingDays: [1, 2, 3], configuredAt: at },
        },
      ]);
  });

  it('when the slot times are not sorted, it is refused with invalid_slot_times', () => {
    given([])
      .when(configure({ slotTimes: ['13:30', '09:30'] }))
      .thenRefused('invalid_slot_times');
  });

  it('when a slot time is given twice, it is refused with invalid_slot_times', () => {
    given([])
      .when(configure({ slotTimes: ['09:30', '09:30'] }))
      .thenRefused('invalid_slot_times');
  });

  it('when there is no slot time or one is not HH:MM, it is refused with invalid_slot_times', () => {
    given([])
      .when(configure({ slotTimes: [] }))
      .thenRefused('invalid_slot_times');
    given([])
      .when(configure({ slotTimes: ['9:30'] }))
      .thenRefused('invalid_slot_times');
  });

  it('when the capacity is negative, it is refused with invalid_capacity', () => {
    given([])
      .when(configure({ capacityPerSlot: -1 }))
      .thenRefused('invalid_capacity');
  });

  it('when a working day is not an ISO weekday or is repeated, it is refused with invalid_working_days', () => {
    given([])
      .when(configure({ workingDays: [0, 1] }))
      .thenRefused('invalid_working_days');
    given([])
      .when(configure({ workingDays: [1, 1] }))
      .thenRefused('invalid_working_days');
  });
});
