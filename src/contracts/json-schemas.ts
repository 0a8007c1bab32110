import { z } from 'zod';
import { catalogImportFile } from '../events/catalog/catalog-import.ts';
import { orderImportPayload } from './order-import.ts';

/**
 * The import contracts as JSON Schema (draft 2020-12), generated from the zod schemas that validate the
 * imports, so that what an integrator reads is what the service parses. The OpenAPI document serves the
 * order's as the import's request body (component CoreOrderImport); `cli orders schema` and
 * `cli catalog schema` print them.
 *
 * What a client sends (io: input): fields with a default are optional. Refinements (amounts to the cent,
 * an order's total, a SKU listed twice) have no JSON Schema form: the contracts' descriptions state them.
 */

export type JsonSchema = Record<string, unknown>;

/**
 * zod leaves `additionalProperties` out of an input object that strips unknown keys, which JSON Schema
 * reads as "anything else allowed": said out loud here, since the legacy order contract refused them.
 * A strict object already prints `false`.
 */
const unknownKeysAccepted = ({ zodSchema, jsonSchema }: { zodSchema: z.core.$ZodTypes; jsonSchema: JsonSchema }): void => {
  if (zodSchema._zod.def.type === 'object' && zodSchema._zod.def.catchall === undefined) jsonSchema.additionalProperties = true;
};

/** The title and description first, as a reader opens the file. */
const contractJsonSchema = (schema: z.ZodType): JsonSchema => {
  const { $schema, title, description, ...rules } = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input', override: unknownKeysAccepted });
  return { $schema, title, description, ...rules };
};

/** One order: the body of POST /api/api-add-new-order-api-shopping and each order of an `orders import` file. */
export const orderImportJsonSchema = (): JsonSchema => contractJsonSchema(orderImportPayload);

/** The file `catalog import` reads: an array of products. */
export const catalogImportJsonSchema = (): JsonSchema => contractJsonSchema(catalogImportFile);
