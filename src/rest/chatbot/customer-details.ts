import type { RouterMiddleware } from '@koa/router';
import { findSavs } from '../../projections/after-sales/queries.ts';
import { customerOrders, findCustomer } from '../../projections/customers/queries.ts';
import type { Runtime } from '../../runtime.ts';
import { parseInput } from '../parse-input.ts';
import { customerNotFound, invalidParameters } from './chatbot-errors.ts';
import { presentCustomer } from './customer-presenter.ts';
import { customerDetailsParams } from './schemas.ts';

/** GET /api/Customer/details/{email}: a customer, found by e-mail in any case, with every order and SAV. */
export const customerDetails =
  (runtime: Runtime): RouterMiddleware =>
  async (ctx) => {
    const { email } = parseInput(customerDetailsParams, ctx.params, invalidParameters);
    const customer = await findCustomer(runtime.readStore, email);
    if (!customer) throw customerNotFound(email);
    const [orders, savs] = await Promise.all([customerOrders(runtime.readStore, email), findSavs(runtime.readStore, { email })]);
    ctx.body = { success: true, customer: presentCustomer(customer, orders, savs, runtime.config.baseUrl) };
  };
