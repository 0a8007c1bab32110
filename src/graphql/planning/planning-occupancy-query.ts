import { addDays } from '../../events/planning/calendar-date.ts';
import type { PlanningType } from '../../events/schema/common-schemas.ts';
import type { Holiday } from '../../events/planning/french-holidays.ts';
import { builder } from '../builder.ts';
import { daysOf, itemsCountedAbove, pricedAbove } from '../cost.ts';
import { badUserInput } from '../errors.ts';
import { PlanningTypeEnum } from '../sales/sale-parts.ts';
import { planningOccupancy, type DayOccupancy, type PlanningOccupancy, type SlotOccupancy, type TypeOccupancy } from './planning-occupancy.ts';
import { answeredFrom } from '../read-model-answers.ts';
import { planningProjection } from '../../projections/planning/planning-projection.ts';

/** The planning occupancy for capacity planning: what is taken, what each slot holds, what is left. */

const maxDays = 366;

const HolidayRef = builder.objectRef<Holiday>('Holiday').implement({
  fields: (t) => ({ date: t.expose('date', { type: 'LocalDate' }), label: t.exposeString('label', { nullable: true }) }),
});

type TakenSlot = { time: string; taken: number };
type TakenDay = { date: string; slots: TakenSlot[] };

const TakenSlotRef = builder.objectRef<TakenSlot>('TakenSlot').implement({
  fields: (t) => ({ time: t.exposeString('time'), taken: t.exposeInt('taken') }),
});

const TakenDayRef = builder.objectRef<TakenDay>('TakenDay').implement({
  description: 'The places taken on a day, summed over the requested plannings (the REST occupied-slot numbers).',
  fields: (t) => ({ date: t.expose('date', { type: 'LocalDate' }), slots: t.expose('slots', { type: [TakenSlotRef] }) }),
});

const SlotRef = builder.objectRef<SlotOccupancy>('PlanningSlot').implement({
  fields: (t) => ({
    time: t.exposeString('time'),
    capacity: t.exposeInt('capacity', { description: '0 on a closed day, or for a time no longer in the slot times.' }),
    taken: t.exposeInt('taken'),
    free: t.exposeInt('free'),
  }),
});

const DayRef = builder.objectRef<DayOccupancy>('PlanningDay').implement({
  fields: (t) => ({
    date: t.expose('date', { type: 'LocalDate' }),
    open: t.exposeBoolean('open'),
    closedBecause: t.exposeString('closedBecause', { nullable: true, description: 'holiday or not_a_working_day; null when open.' }),
    slots: t.expose('slots', { type: [SlotRef] }),
  }),
});

const TypeRef = builder.objectRef<TypeOccupancy>('PlanningTypeOccupancy').implement({
  fields: (t) => ({
    planningType: t.field({ type: PlanningTypeEnum, complexity: pricedAbove, resolve: ({ settings }) => settings.planningType }),
    slotTimes: t.stringList({ complexity: pricedAbove, resolve: ({ settings }) => settings.slotTimes }),
    capacityPerSlot: t.int({ complexity: pricedAbove, resolve: ({ settings }) => settings.capacityPerSlot }),
    workingDays: t.intList({
      description: 'ISO weekdays: 1 = Monday ... 7 = Sunday.',
      complexity: pricedAbove,
      resolve: ({ settings }) => settings.workingDays,
    }),
    days: t.expose('days', { type: [DayRef], complexity: itemsCountedAbove }),
  }),
});

const OccupancyRef = builder.objectRef<PlanningOccupancy>('PlanningOccupancy').implement({
  fields: (t) => ({
    from: t.expose('from', { type: 'LocalDate', complexity: pricedAbove }),
    to: t.expose('to', { type: 'LocalDate', complexity: pricedAbove }),
    timezone: t.exposeString('timezone', { complexity: pricedAbove }),
    holidays: t.expose('holidays', {
      type: [HolidayRef],
      description: 'Public and declared holidays in the range: every planning is closed then.',
      complexity: pricedAbove,
    }),
    occupied: t.field({
      type: [TakenDayRef],
      description: 'Only the days and slots with a place taken.',
      complexity: itemsCountedAbove,
      resolve: ({ occupied }) =>
        Object.entries(occupied).map(([date, slots]) => ({ date, slots: Object.entries(slots).map(([time, taken]) => ({ time, taken })) })),
    }),
    plannings: t.expose('plannings', { type: [TypeRef], complexity: itemsCountedAbove }),
  }),
});

builder.queryField('planningOccupancy', (t) =>
  t.field({
    type: OccupancyRef,
    extensions: answeredFrom(planningProjection.name),
    description: `The planning occupancy from \`from\` to \`to\` (inclusive, at most ${maxDays} days), for the given planning types (default: sav).`,
    args: {
      from: t.arg({ type: 'LocalDate', required: true }),
      to: t.arg({ type: 'LocalDate', required: true }),
      planningTypes: t.arg({ type: [PlanningTypeEnum], defaultValue: ['sav'] }),
      excludeSavId: t.arg.int({ description: 'A SAV being rescheduled: its own place is not counted.' }),
    },
    // Each planning's days read; what is asked of a day, once per day of each planning. The days
    // occupied, summed over the plannings, are counted once per planning as well (at most twice).
    complexity: (args) => {
      const daysRead = daysOf(args) * Math.max(1, new Set(args.planningTypes ?? ['sav']).size);
      return { field: 1 + daysRead, multiplier: daysRead };
    },
    resolve: (_root, args, { runtime }) => {
      if (args.to < args.from) throw badUserInput('to', `must not be before from (${args.from})`);
      if (args.to > addDays(args.from, maxDays - 1)) throw badUserInput('to', `the range must not exceed ${maxDays} days`);
      const planningTypes = [...new Set<PlanningType>(args.planningTypes ?? ['sav'])];
      if (planningTypes.length === 0) throw badUserInput('planningTypes', 'must name at least one planning type');
      return planningOccupancy(runtime.readStore, runtime.config.planningTimezone, {
        from: args.from,
        to: args.to,
        planningTypes,
        ...(args.excludeSavId !== null && args.excludeSavId !== undefined && { excludeSavId: args.excludeSavId }),
      });
    },
  }),
);
