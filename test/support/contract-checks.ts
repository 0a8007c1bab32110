import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { z } from 'zod';

/**
 * The two ways an import is checked, each answering its first issue ("path: message") or undefined
 * when the value is valid, so that failures stay readable: by a JSON Schema, as an integrator's
 * validator would, and by a zod schema, as the service does.
 *
 * The JSON Schema validator is Ajv 8 (draft 2020-12, formats by ajv-formats), independent of zod, which
 * generates the schemas. It comes with the OpenAPI validator of the devDependencies and is required
 * from there: the top-level `ajv` is ESLint's Ajv 6, which knows no draft 2020-12.
 */

type ValidateFunction = ((value: unknown) => boolean) & { errors?: { instancePath: string; message?: string }[] | null };
type Ajv = { compile: (schema: object) => ValidateFunction };

const besideTheOpenApiValidator = createRequire(createRequire(import.meta.url).resolve('@seriousme/openapi-schema-validator'));
const { default: Ajv2020 } = besideTheOpenApiValidator('ajv/dist/2020') as { default: new (options: object) => Ajv };
const { default: addFormats } = besideTheOpenApiValidator('ajv-formats') as { default: (ajv: Ajv) => Ajv };
const ajv = addFormats(new Ajv2020({ strict: true, allErrors: true }));

export type Check = (value: unknown) => string | undefined;

export const jsonSchemaCheck = (schema: object): Check => {
  const validate = ajv.compile(schema);
  return (value) => {
    if (validate(value)) return undefined;
    const [error] = validate.errors ?? [];
    return `${error?.instancePath}: ${error?.message}`;
  };
};

export const zodCheck =
  (schema: z.ZodType): Check =>
  (value) => {
    const result = schema.safeParse(value);
    if (result.success) return undefined;
    const [issue] = result.error.issues;
    return `${issue?.path.join('.')}: ${issue?.message}`;
  };

/** The example payloads of docs/examples, fresh for each call (a spec may spoil its copy). */
const example = (file: string): any => JSON.parse(readFileSync(new URL(`../../docs/examples/${file}`, import.meta.url), 'utf8'));
export const exampleOrder = (): Record<string, any> => example('order.json') as Record<string, any>;
export const exampleCatalog = (): Record<string, any>[] => example('catalog.json') as Record<string, any>[];
