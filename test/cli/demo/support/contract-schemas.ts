import { readFileSync } from 'node:fs';
import { z } from 'zod';

/**
 * The two import contracts, compiled from their JSON schema files as they stand: demo data is checked
 * against the documents the integrators read, not against a copy of their rules.
 */
const contractsDir = new URL('../../../../../shared/contracts/', import.meta.url);

const compile = (file: string): z.ZodType => z.fromJSONSchema(JSON.parse(readFileSync(new URL(file, contractsDir), 'utf8')));

export const catalogImportContract = compile('catalog-import.schema.json');
export const orderImportContract = compile('order-import.schema.json');

export const exampleOrder = (): Record<string, unknown> =>
  JSON.parse(readFileSync(new URL('examples/order.json', contractsDir), 'utf8')) as Record<string, unknown>;

/** The first issue's path and message, or undefined when the value is valid: failures stay readable. */
export const firstIssue = (schema: z.ZodType, value: unknown): string | undefined => {
  const result = schema.safeParse(value);
  if (result.success) return undefined;
  const issue = result.error.issues[0];
  return `${issue?.path.join('.')}: ${issue?.message}`;
};
