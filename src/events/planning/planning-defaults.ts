import type { PlanningType } from '../schema/common-schemas.ts';
import type { PlanningSettings } from './events.ts';

/**
 * The settings a planning has until it is configured (nothing is recorded for them):
 * - sav: Monday to Friday, slots 09:00, 11:00, 14:00 and 16:00, two appointments per slot;
 * - delivery: Monday to Saturday, slots 08:00, 10:00, 13:00, 15:00 and 17:00, four deliveries per slot.
 */
export const defaultPlanningSettings: Readonly<Record<PlanningType, PlanningSettings>> = {
  sav: {
    planningType: 'sav',
    slotTimes: ['09:00', '11:00', '14:00', '16:00'],
    capacityPerSlot: 2,
    workingDays: [1, 2, 3, 4, 5],
  },
  delivery: {
    planningType: 'delivery',
    slotTimes: ['08:00', '10:00', '13:00', '15:00', '17:00'],
    capacityPerSlot: 4,
    workingDays: [1, 2, 3, 4, 5, 6],
  },
};
