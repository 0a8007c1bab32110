import { z } from 'zod';

/** The path of GET /api/sale-invoice/{token}: the token is checked by its signature, not by its shape. */
export const saleInvoiceParams = z.object({
  token: z.string().min(1).max(2048),
});
