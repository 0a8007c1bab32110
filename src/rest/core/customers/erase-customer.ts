import type { RouterMiddleware } from '@koa/router';
import type { z } from 'zod';
import type { CommandContext } from '../../../events/command-context.ts';
import { eraseCustomerEverywhere, type ErasureReport } from '../../../erasure/erase-customer-everywhere.ts';
import type { Runtime } from '../../../runtime.ts';
import { HttpError } from '../../../http/http-error.ts';
import { parseInput } from '../../parse-input.ts';
import { eraseCustomerBody, type customerErased } from './schemas.ts';

const invalidField = (field: string, issue: { message: string }): HttpError => new HttpError(400, 'invalid_request', `${field || 'body'}: ${issue.message}`);

export const customerNotFound = (): HttpError =>
  new HttpError(404, 'customer_not_found', 'No personal data is kept for this e-mail address: no order, SAV or lead names it');

export const logNotMigrated = (): HttpError =>
  new HttpError(
    409,
    'log_not_migrated',
    'The event log still holds events written before personal data was encrypted: run `cli events encrypt-personal-data` first, then erase again',
  );

/** The answer of an erasure, or the error it maps to. */
export const erasureAnswer = (report: ErasureReport): z.infer<typeof customerErased> => {
  switch (report.status) {
    case 'unknown':
      throw customerNotFound();
    case 'log_not_migrated':
      throw logNotMigrated();
    case 'already_erased':
      return { success: true, status: 'already_erased', erased_at: report.erasedAt, message: 'This customer was already erased' };
    case 'erased':
      return {
        success: true,
        status: 'erased',
        erased_at: report.erasedAt,
        sales: report.sales,
        savs: report.savs,
        leads: report.leads,
        files_deleted: report.filesDeleted,
        read_models_scrubbed: report.readModelsScrubbed,
        message: 'The customer key was deleted: names, e-mail, phones and addresses now read as [erased] everywhere',
      };
  }
};

/** POST /api/customers/erase: the right to erasure (GDPR article 17) of the customer of an e-mail address. */
export const eraseCustomer =
  (runtime: Runtime): RouterMiddleware =>
  async (ctx) => {
    const { email } = parseInput(eraseCustomerBody, ctx.request.body, invalidField);
    const context: CommandContext = ctx.state.commandContext;
    ctx.body = erasureAnswer(await eraseCustomerEverywhere(runtime, email, context));
  };
