import type { PlanningType } from '../schema/common-schemas.ts';
import { assertNever, Refusal, type Decider } from '../decider.ts';
import type { PlanningEvent, PlanningSettings } from './events.ts';
import { defaultPlanningSettings } from './planning-defaults.ts';

/** The settings of one planning type, stream `planning-<type>`. */

export type ConfigurePlanning = {
  type: 'ConfigurePlanning';
  planningType: PlanningType;
  slotTimes: string[];
  capacityPerSlot: number;
  workingDays: number[];
  at: string;
};
export type PlanningCommand = ConfigurePlanning;

export type PlanningConfigured = Extract<PlanningEvent, { type: 'PlanningConfigured' }>;

/** `configured` is null while the planning runs on its defaults. */
export type PlanningState = { configured: PlanningSettings | null };

export type PlanningRefusalCode = 'invalid_slot_times' | 'invalid_capacity' | 'invalid_working_days';

export const effectiveSettings = (state: PlanningState, planningType: PlanningType): PlanningSettings =>
  state.configured ?? defaultPlanningSettings[planningType];

const slotTime = /^([01]\d|2[0-3]):[0-5]\d$/;
const maxSlots = 48;
const maxCapacity = 1000;

const sameSettings = (left: PlanningSettings, right: PlanningSettings): boolean =>
  left.capacityPerSlot === right.capacityPerSlot && left.slotTimes.join() === right.slotTimes.join() && left.workingDays.join() === right.workingDays.join();

const configure = (command: ConfigurePlanning, state: PlanningState) => {
  const { slotTimes, capacityPerSlot, workingDays } = command;
  // Strictly increasing HH:MM strings are both sorted and unique.
  const sortedAndUnique = slotTimes.every((time, index) => index === 0 || (slotTimes[index - 1] ?? '') < time);
  if (slotTimes.length === 0 || slotTimes.length > maxSlots || !slotTimes.every((time) => slotTime.test(time)) || !sortedAndUnique) {
    return new Refusal<PlanningRefusalCode>('invalid_slot_times', 'Slot times must be 1 to 48 unique HH:MM times in increasing order', { slotTimes });
  }
  if (!Number.isInteger(capacityPerSlot) || capacityPerSlot < 0 || capacityPerSlot > maxCapacity) {
    return new Refusal<PlanningRefusalCode>('invalid_capacity', 'The capacity per slot must be an integer from 0 to 1000', { capacityPerSlot });
  }
  if (new Set(workingDays).size !== workingDays.length || !workingDays.every((day) => Number.isInteger(day) && day >= 1 && day <= 7)) {
    return new Refusal<PlanningRefusalCode>('invalid_working_days', 'Working days must be unique ISO weekdays (1 = Monday ... 7 = Sunday)', { workingDays });
  }
  // The order of the working days carries no meaning: they are recorded sorted so that equal settings compare equal.
  const settings: PlanningSettings = {
    planningType: command.planningType,
    slotTimes: [...slotTimes],
    capacityPerSlot,
    workingDays: [...workingDays].sort((left, right) => left - right),
  };
  if (sameSettings(settings, effectiveSettings(state, command.planningType))) return [];
  return [{ type: 'PlanningConfigured', data: { ...settings, configuredAt: command.at } } satisfies PlanningConfigured];
};

export const planningDecider: Decider<PlanningState, PlanningCommand, PlanningConfigured> = {
  initialState: () => ({ configured: null }),
  evolve: (_state, event) => {
    switch (event.type) {
      case 'PlanningConfigured': {
        const { configuredAt: _configuredAt, ...settings } = event.data;
        return { configured: settings };
      }
      default:
        return assertNever(event.type);
    }
  },
  decide: (command, state) => {
    switch (command.type) {
      case 'ConfigurePlanning':
        return configure(command, state);
      default:
        return assertNever(command.type);
    }
  },
};
