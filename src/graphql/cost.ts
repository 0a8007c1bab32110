import { createComplexityRule, type FieldComplexityValue } from '@pothos/plugin-complexity';
import {
  getNamedType,
  getNullableType,
  GraphQLError,
  isLeafType,
  isListType,
  validate,
  type DocumentNode,
  type GraphQLOutputType,
  type GraphQLSchema,
} from 'graphql/index.js';

/**
 * What an operation costs, computed from the document and its variables before anything runs: about
 * one unit per value the server resolves, plus the documents a field reads. Each field states its
 * cost where it is defined (`complexity`, @pothos/plugin-complexity), and the plugin adds to it the
 * cost of the field's selection times the field's multiplier. A list multiplies the cost of its
 * items by its size: the page asked (`first`, `last`), the number of buckets of a dashboard (its
 * days by its granularity), the days of a planning; other lists count 10 items. A DAY dashboard
 * over a year (366 buckets, 366 days read) thus costs about 12 times a MONTH one over a quarter, and
 * fifteen aliased year-long dashboards far more than one request may spend.
 *
 * The plugin sizes a list from the list field's own arguments; here the size is an argument of the
 * field above it (`events(first)` > `events`, `dashboard(from, to)` > `buckets`). That field's
 * multiplier is then the size, its list of items adds nothing (`itemsCountedAbove`), and what it
 * answers once beside them, computed with the items it reads (a page's cursor, a dashboard's totals),
 * is priced with it (`pricedAbove`) rather than once per item.
 */

export const maxCost = 10_000;
export const defaultListSize = 10;
/** Reading and folding a day's document of a dashboard or a performance figure. */
export const dayReadCost = 5;
/** The dashboard's and the plannings' ranges are refused beyond this by their resolvers. */
const maxDays = 366;

/** The days from `from` to `to`, inclusive. */
export const daysOf = ({ from, to }: { from: string; to: string }): number => {
  const days = Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000) + 1;
  // A range its resolver refuses (reversed, too long, not a date) computes nothing: it gets that error, not this one.
  return Number.isNaN(days) || days < 1 || days > maxDays ? 1 : days;
};

/** The size of the page asked, or the field's default. */
export const pageOf = (size: number | null | undefined, defaultSize: number): number => Math.max(0, size ?? defaultSize);

/** The list of items of a field whose multiplier is their number. */
export const itemsCountedAbove: FieldComplexityValue = { field: 0, multiplier: 1 };
/** A value answered once beside the items of a field whose multiplier is their number. */
export const pricedAbove: FieldComplexityValue = { field: 0, multiplier: 0 };

/** The cost of a field that states none: 1; a list of objects 1 and 10 times an item; a list of scalars its 10 items. */
export const defaultFieldCost = (_args: unknown, _context: unknown, field: { type: GraphQLOutputType }): FieldComplexityValue => {
  const type = getNullableType(field.type);
  if (!isListType(type)) return 1;
  return isLeafType(getNamedType(type)) ? defaultListSize : { field: 1, multiplier: defaultListSize };
};

/** The cost of the operation that would run (the named one; without a name, the costliest). */
export const operationCost = (
  schema: GraphQLSchema,
  document: DocumentNode,
  variableValues: Record<string, unknown> = {},
  operationName?: string | null,
  context: object = {},
): number => {
  let cost = 0;
  // Invalid variables or an unknown operation leave it at 0: execution answers them with graphql-js's own error.
  const priced = createComplexityRule({ context, variableValues, operationName, onResult: ({ complexity }) => (cost = Math.max(cost, complexity)) });
  validate(schema, document, [priced]);
  return cost;
};

export const tooCostly = (cost: number): GraphQLError =>
  new GraphQLError(
    `The query costs ${cost}, more than the limit of ${maxCost}: ask for fewer fields, smaller pages, shorter periods or a coarser granularity`,
    {
      extensions: { code: 'QUERY_TOO_COSTLY', cost, maxCost },
    },
  );
