import type { Response } from 'supertest';
import { expect } from 'vitest';
import { z } from 'zod';

/** Reads the served OpenAPI document the way a client would: by JSON pointer, following $refs. */

export type Json = Record<string, unknown>;

export const resolvePointer = (document: Json, ref: string): unknown =>
  ref
    .replace(/^#\//, '')
    .split('/')
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>((node, segment) => (node as Json | undefined)?.[segment], document);

/** Every `$ref` in `node`, with where it sits. */
export const refsIn = (node: unknown, at = '#'): { at: string; ref: string }[] => {
  if (Array.isArray(node)) return node.flatMap((item, index) => refsIn(item, `${at}/${index}`));
  if (node === null || typeof node !== 'object') return [];
  return Object.entries(node).flatMap(([key, value]) => (key === '$ref' && typeof value === 'string' ? [{ at, ref: value }] : refsIn(value, `${at}/${key}`)));
};

/** The schema with every local $ref replaced by what it points to (the document has no cycles). */
export const inlined = (document: Json, node: unknown): unknown => {
  if (Array.isArray(node)) return node.map((item) => inlined(document, item));
  if (node === null || typeof node !== 'object') return node;
  const { $ref, ...rest } = node as Json;
  if (typeof $ref === 'string') return inlined(document, resolvePointer(document, $ref));
  return Object.fromEntries(Object.entries(rest).map(([key, value]) => [key, inlined(document, value)]));
};

export const documentedResponse = (document: Json, path: string, method: string, status: number): Json => {
  const response = resolvePointer(document, `#/paths/${path.replace(/\//g, '~1')}/${method}/responses/${status}`) as Json | undefined;
  if (!response) throw new Error(`${method.toUpperCase()} ${path} documents no ${status}`);
  return response;
};

/** The answer has the documented status, and its body is valid against the documented JSON schema. */
export const expectDocumented = (document: Json, path: string, method: string, response: Response): Json => {
  const documented = documentedResponse(document, path, method, response.status);
  const content = (documented.content as Json)['application/json'] as Json;
  const validator = z.fromJSONSchema(inlined(document, content.schema) as Parameters<typeof z.fromJSONSchema>[0]);
  const checked = validator.safeParse(response.body);
  expect(checked.error?.issues ?? [], `${method.toUpperCase()} ${path} ${response.status}: ${response.text}`).toEqual([]);
  return content;
};

/** The documented headers of the answer are present when required and valid against their schemas. */
export const expectDocumentedHeaders = (document: Json, path: string, method: string, response: Response): void => {
  const headers = documentedResponse(document, path, method, response.status).headers as Record<string, Json>;
  for (const [name, header] of Object.entries(headers)) {
    const value: unknown = response.headers[name.toLowerCase()];
    if (value === undefined) {
      expect(header.required, `header ${name}`).toBe(false);
      continue;
    }
    const validator = z.fromJSONSchema(header.schema as Parameters<typeof z.fromJSONSchema>[0]);
    expect(validator.safeParse(value).success, `header ${name}: ${String(value)}`).toBe(true);
  }
};
