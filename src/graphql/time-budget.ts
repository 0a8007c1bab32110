import { nextTurn } from '../concurrency/time-slice.ts';
import { GraphQLError, type GraphQLFieldResolver } from 'graphql/index.js';

/**
 * The per-operation time budget (GRAPHQL_TIME_BUDGET_MS). The deadline is set when the operation
 * starts executing; every resolver checks it before it runs, so that once it has passed the
 * remaining fields are abandoned with TIME_BUDGET_EXCEEDED instead of computed. A root field that
 * waited on I/O gives the event loop a turn before the next one starts, so that other requests (a
 * supplier polling its sales) are served between the fields of a long operation. No single
 * resolver runs long synchronously: the costly ones are bounded by the cost model (cost.ts).
 */

export type TimeBudget = { deadline: number; ms: number };

/** What a resolver's context needs here: the budget, once the operation runs (the GraphQL context carries it). */
type Budgeted = { timeBudget?: TimeBudget };

export const startBudget = (ms: number): TimeBudget => ({ deadline: performance.now() + ms, ms });

const exceeded = (budget: TimeBudget): GraphQLError =>
  new GraphQLError(`The operation ran out of its time budget of ${budget.ms} ms; its remaining fields were abandoned`, {
    extensions: { code: 'TIME_BUDGET_EXCEEDED', timeBudgetMs: budget.ms },
  });

const isPromise = (value: unknown): value is Promise<unknown> => typeof (value as Promise<unknown> | null)?.then === 'function';

export const withinBudget =
  (resolve: GraphQLFieldResolver<unknown, Budgeted>, rootField: boolean): GraphQLFieldResolver<unknown, Budgeted> =>
  (source, args, context, info) => {
    const budget = context.timeBudget;
    if (budget && performance.now() > budget.deadline) throw exceeded(budget);
    const result = resolve(source, args, context, info);
    if (!rootField || !isPromise(result)) return result;
    return result.then(async (value) => {
      await nextTurn();
      return value;
    });
  };
