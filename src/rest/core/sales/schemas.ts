import { z } from 'zod';

/**
 * The inputs of the core sale reads, parsed at the edge. Path parameters arrive as text: a sale ID is
 * read only from plain digits, so `1e3`, `0x10`, ` 7` or `12.0` are refused rather than coerced.
 */

const maxSaleId = 2_147_483_647;

const saleId = z
  .string()
  .regex(/^[0-9]{1,10}$/, 'must be a positive integer')
  .transform(Number)
  .pipe(z.number().int().min(1, 'must be a positive integer').max(maxSaleId, `must be at most ${maxSaleId}`));

/** Printed as the integer it is: the text form is how a path carries it. */
export const saleIdParams = z.object({ id: saleId.meta({ type: 'integer', minimum: 1, maximum: maxSaleId }).describe('The integer sale ID') });

export const incrementIdParams = z.object({
  incrementId: z
    .string()
    .regex(/^[0-9]{1,20}$/, 'must be 1 to 20 digits')
    .describe("The platform's increment ID of the order"),
});
