import { z } from 'zod';
import { documentedAs, inputJsonSchema } from './documented-as.ts';

/** Optional fields of legacy forms arrive empty ("" or null) when not filled in: they count as absent. */
export const blankAsAbsent = <S extends z.ZodType>(schema: S) =>
  documentedAs(
    z.preprocess((value) => (value === '' || value === null ? undefined : value), schema.optional()),
    {
      anyOf: [inputJsonSchema(schema), { const: '' }, { type: 'null' }],
    },
  );
