import { z } from 'zod';

/** Optional fields of legacy forms arrive empty ("" or null) when not filled in: they count as absent. */
export const blankAsAbsent = <S extends z.ZodType>(schema: S) =>
  z.preprocess((value) => (value === '' || value === null ? undefined : value), schema.optional());
