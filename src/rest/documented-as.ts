import { z } from 'zod';

/**
 * How a schema is printed in the OpenAPI document when zod cannot print it itself: an input read
 * leniently (a blank form field counts as absent), or a text parameter that is an integer or a date.
 * The replacement travels as metadata and is swapped in by the document builder (openapi/document.ts).
 */
export const documentedAsKey = 'x-documented-as';

export const documentedAs = <S extends z.ZodType>(schema: S, jsonSchema: Record<string, unknown>): S => schema.meta({ [documentedAsKey]: jsonSchema });

/** The JSON Schema of what a client may send for `schema`, as the document prints it. */
export const inputJsonSchema = (schema: z.ZodType): Record<string, unknown> => {
  const { $schema: _dialect, ...printed } = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' });
  return printed;
};
