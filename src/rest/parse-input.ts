import type { z } from 'zod';
import { HttpError } from '../http/http-error.ts';

/**
 * zod at the edge, once: parses a request part with its schema or throws the group's 400. `refuse`
 * builds that 400 from the first issue (its path names the field), so each API group keeps its texts.
 */
export const parseInput = <S extends z.ZodType>(schema: S, input: unknown, refuse: (field: string, issue: z.core.$ZodIssue) => HttpError): z.output<S> => {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const error = refuse(issue.path.map(String).join('.'), issue);
  const logDetail = issue.code === 'custom' ? (issue.params as { logDetail?: Record<string, unknown> } | undefined)?.logDetail : undefined;
  if (logDetail) error.logDetail = logDetail;
  throw error;
};
