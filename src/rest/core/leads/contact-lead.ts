import type { RouterMiddleware } from '@koa/router';
import type { CommandContext } from '../../../events/command-context.ts';
import { captureLead } from '../../../events/leads/lead-handlers.ts';
import type { Runtime } from '../../../runtime.ts';
import { HttpError } from '../../../http/http-error.ts';
import { parseInput } from '../../parse-input.ts';
import { contactLeadBody } from './schemas.ts';
import { noteWritten } from '../../../http/read-your-writes.ts';

const invalidField = (field: string, issue: { message: string }): HttpError => new HttpError(400, 'invalid_request', `${field || 'body'}: ${issue.message}`);

/**
 * POST /api/contact-lead: records the lead and answers at once. The team's notification e-mail is
 * not sent here but by the lead notification job (src/jobs), so that a lead is recorded even while
 * the mail server is down.
 */
export const contactLead =
  (runtime: Runtime): RouterMiddleware =>
  async (ctx) => {
    const body = parseInput(contactLeadBody, ctx.request.body, invalidField);
    const context: CommandContext = ctx.state.commandContext;
    const { leadId, written } = await captureLead(
      runtime.write,
      { name: body.name, email: body.email, phone: body.phone, projectName: body.project_name },
      context,
    );
    noteWritten(ctx.state, written);
    ctx.status = 201;
    ctx.body = { success: true, lead_id: leadId, message: 'Lead recorded; the team will be notified by e-mail' };
  };
