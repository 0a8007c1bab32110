import { z } from 'zod';

/**
 * POST /api/customers/erase. The e-mail travels in the body, never in the path: paths end up in the
 * logs of proxies and load balancers.
 */
export const eraseCustomerBody = z.object(
  {
    email: z
      .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') })
      .trim()
      .pipe(z.email('must be a valid e-mail address').max(254, 'must be at most 254 characters'))
      .meta({ maxLength: 254, pattern: z.regexes.email.source }),
  },
  { error: () => 'must be a JSON object' },
);

export const customerErased = z.object({
  success: z.literal(true),
  status: z.enum(['erased', 'already_erased']).describe('`already_erased`: an earlier request erased this customer; nothing more to do'),
  erased_at: z.string().describe('When the customer was erased (ISO-8601)'),
  sales: z.number().int().optional().describe('Sales whose personal data was erased (with `erased`)'),
  savs: z.number().int().optional(),
  leads: z.number().int().optional(),
  files_deleted: z.number().int().optional().describe('Labels and mail files made from their data, deleted under DATA_DIR'),
  read_models_scrubbed: z.boolean().optional().describe('False if the read models had not applied the erasure yet when answering (they will)'),
  message: z.string(),
});
