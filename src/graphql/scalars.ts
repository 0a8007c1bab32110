import { GraphQLError, Kind, valueFromASTUntyped } from 'graphql/index.js';
import { z } from 'zod';
import { instant, localDate } from '../events/schema/common-schemas.ts';
import { builder } from './builder.ts';

/** Scalars validated with the same zod shapes the events use, so an input means what an event means. */

const parsedWith =
  <T>(schema: z.ZodType<T>, name: string) =>
  (value: unknown): T => {
    const result = schema.safeParse(value);
    if (!result.success) throw new GraphQLError(`${name} cannot represent ${JSON.stringify(value)}: ${result.error.issues[0]?.message ?? 'invalid'}`);
    return result.data;
  };

const parseDateTime = parsedWith(instant, 'DateTime');
builder.scalarType('DateTime', {
  description:
    'An RFC 3339 instant. Answers write it at the second in the planning time zone with its offset (2026-10-05T10:00:00+02:00); inputs take any offset (2026-10-05T08:00:00.000Z).',
  serialize: (value) => value,
  parseValue: parseDateTime,
  parseLiteral: (node) => parseDateTime(node.kind === Kind.STRING ? node.value : null),
});

const parseLocalDate = parsedWith(localDate, 'LocalDate');
builder.scalarType('LocalDate', {
  description: 'A calendar date, YYYY-MM-DD, in the planning time zone.',
  serialize: (value) => value,
  parseValue: parseLocalDate,
  parseLiteral: (node) => parseLocalDate(node.kind === Kind.STRING ? node.value : null),
});

// The log's commit positions outgrow a 32-bit Int; JSON numbers carry them exactly up to 2^53.
const parsePosition = parsedWith(z.number().int().min(0).max(Number.MAX_SAFE_INTEGER), 'Position');
builder.scalarType('Position', {
  description: 'A global commit position in the event log (a non-negative safe integer).',
  serialize: (value) => value,
  parseValue: parsePosition,
  parseLiteral: (node) => parsePosition(node.kind === Kind.INT ? Number(node.value) : null),
});

builder.scalarType('JSON', {
  description: 'A JSON value: event data as recorded, or the data an action token carries.',
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: (node, variables) => valueFromASTUntyped(node, variables),
});
