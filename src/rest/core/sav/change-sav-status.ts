import type { RouterMiddleware } from '@koa/router';
import type { z } from 'zod';
import type { CommandContext } from '../../../events/command-context.ts';
import type { PlanningDeps } from '../../../events/planning/planning-handlers.ts';
import { cancelSav, closeSav, reopenSav, resolveSav, type SavTransitionResult } from '../../../events/after-sales/sav-lifecycle.ts';
import type { Runtime } from '../../../runtime.ts';
import { parseInput } from '../../parse-input.ts';
import { invalidRequest, savChangeRefused } from './sav-errors.ts';
import { cancelSavBody, closeSavBody, reopenSavBody, resolveSavBody } from '../../../contracts/sav-status-changes.ts';
import { savIdParams } from './schemas.ts';
import { noteWritten } from '../../../http/read-your-writes.ts';

/**
 * POST /api/sale-sav/{id}/resolve|close|reopen|cancel: staff change a SAV's status. The answer says
 * what was recorded (the new status and when) and which appointment, if any, was given back to the
 * planning; a change the status does not allow is a 409 and records nothing.
 */

type Change<S extends z.ZodType> = {
  body: S;
  run: (deps: PlanningDeps, savId: number, body: z.output<S>, context: CommandContext) => Promise<SavTransitionResult>;
};

const changes = {
  resolve: { body: resolveSavBody, run: (deps, savId, { resolution }, context) => resolveSav(deps, { savId, resolution }, context) } satisfies Change<
    typeof resolveSavBody
  >,
  close: { body: closeSavBody, run: (deps, savId, _body, context) => closeSav(deps, { savId }, context) } satisfies Change<typeof closeSavBody>,
  reopen: { body: reopenSavBody, run: (deps, savId, { reason }, context) => reopenSav(deps, { savId, reason }, context) } satisfies Change<
    typeof reopenSavBody
  >,
  cancel: { body: cancelSavBody, run: (deps, savId, { reason }, context) => cancelSav(deps, { savId, reason }, context) } satisfies Change<
    typeof cancelSavBody
  >,
};
export type SavChangeName = keyof typeof changes;

const messageOf = (savId: number, result: Exclude<SavTransitionResult, { status: 'refused' }>): string => {
  const released = result.releasedAppointment;
  const given = released ? `; its appointment of ${released.date} at ${released.time} was given back to the planning` : '';
  return `SAV ${savId} ${result.status}${given}`;
};

export const changeSavStatus = (runtime: Runtime, name: SavChangeName): RouterMiddleware => {
  const change = changes[name] as Change<z.ZodType>;
  const deps = runtime.planning;
  return async (ctx) => {
    const { id: savId } = parseInput(savIdParams, ctx.params, invalidRequest);
    const body = parseInput(change.body, ctx.request.body ?? {}, invalidRequest);
    const result = await change.run(deps, savId, body, ctx.state.commandContext);
    if (result.status === 'refused') throw savChangeRefused(savId, result.refusal);
    noteWritten(ctx.state, result.written);
    ctx.body = {
      success: true,
      message: messageOf(savId, result),
      sav_id: savId,
      status: result.status === 'reopened' ? 'in_progress' : result.status,
      status_changed_at: result.at,
      released_appointment: result.releasedAppointment,
    };
  };
};
