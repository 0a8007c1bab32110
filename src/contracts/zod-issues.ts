import type { z } from 'zod';

/** A zod error as one line per problem, each naming its field: `items.0.price: Too small ...`. */
export const describeIssues = (error: z.ZodError): string[] =>
  error.issues.map((issue) => `${issue.path.length ? issue.path.join('.') : '(root)'}: ${issue.message}`);
