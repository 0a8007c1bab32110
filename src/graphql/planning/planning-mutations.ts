import { z } from 'zod';
import type { PlanningType } from '../../events/schema/common-schemas.ts';
import type { Refusal } from '../../events/decider.ts';
import { configurePlanning, declareHoliday, removeHoliday } from '../../events/planning/planning-handlers.ts';
import { builder } from '../builder.ts';
import { CommandResultRef, type CommandResult } from '../command-result.ts';
import { badUserInput, refused } from '../errors.ts';
import { PlanningTypeEnum } from '../sales/sale-parts.ts';
import type { Written } from '../../events/command-handler.ts';
import { noteWritten } from '../../http/read-your-writes.ts';
import type { GraphqlContext } from '../context.ts';

/** The holiday calendar and the planning settings, changed through the planning command handlers. */

const holidayLabel = z.string().trim().min(1).max(200);

const answered = (context: GraphqlContext, outcome: { status: string; written?: Written } | { status: 'refused'; refusal: Refusal }): CommandResult => {
  if ('refusal' in outcome) throw refused(outcome.refusal);
  noteWritten(context.writes, outcome.written);
  return { status: outcome.status };
};

builder.mutationField('declareHoliday', (t) =>
  t.field({
    type: CommandResultRef,
    authScopes: { staff: true },
    description: 'Closes every planning on that day. Status `declared`, or `unchanged` when it already was.',
    args: { date: t.arg({ type: 'LocalDate', required: true }), label: t.arg.string() },
    resolve: async (_root, { date, label }, context) => {
      const { runtime, commandContext } = context;
      const parsedLabel = label === null || label === undefined ? null : holidayLabel.safeParse(label);
      if (parsedLabel && !parsedLabel.success) throw badUserInput('label', 'must be a text of 1 to 200 characters');
      return answered(context, await declareHoliday(runtime.write, { date, label: parsedLabel?.data ?? null }, commandContext));
    },
  }),
);

builder.mutationField('removeHoliday', (t) =>
  t.field({
    type: CommandResultRef,
    authScopes: { staff: true },
    description: 'Opens a declared holiday again. Refused: HOLIDAY_NOT_DECLARED, PUBLIC_HOLIDAY.',
    args: { date: t.arg({ type: 'LocalDate', required: true }) },
    resolve: async (_root, { date }, context) => {
      return answered(context, await removeHoliday(context.runtime.write, { date }, context.commandContext));
    },
  }),
);

builder.mutationField('configurePlanning', (t) =>
  t.field({
    type: CommandResultRef,
    authScopes: { staff: true },
    description: 'Sets a planning’s slot times, capacity per slot and working days. Refused: INVALID_SLOT_TIMES, INVALID_CAPACITY, INVALID_WORKING_DAYS.',
    args: {
      planningType: t.arg({ type: PlanningTypeEnum, required: true }),
      slotTimes: t.arg.stringList({ required: true, description: 'HH:MM, increasing.' }),
      capacityPerSlot: t.arg.int({ required: true }),
      workingDays: t.arg.intList({ required: true, description: 'ISO weekdays: 1 = Monday ... 7 = Sunday.' }),
    },
    resolve: async (_root, args, context) => {
      const { runtime, commandContext } = context;
      const input = { ...args, planningType: args.planningType as PlanningType };
      return answered(context, await configurePlanning(runtime.write, input, commandContext));
    },
  }),
);
