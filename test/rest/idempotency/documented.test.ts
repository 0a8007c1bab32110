import { describe, expect, it } from 'vitest';
import { idempotencyTexts } from '../../../src/rest/idempotency/idempotency-answers.ts';
import { serviceOpenApiDocument } from '../../../src/rest/openapi/routes.ts';

type Operation = {
  security: Record<string, string[]>[];
  parameters: { name: string; in: string }[];
  responses: Record<string, { description: string; headers?: Record<string, unknown>; content?: Record<string, { example?: unknown }> }>;
};

describe('the OpenAPI document and the Idempotency-Key', () => {
  const document = serviceOpenApiDocument('https://orders.example.test');
  const posts = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods as Record<string, Operation>).flatMap(([method, operation]) => (method === 'post' ? [{ path, operation }] : [])),
  );
  const groupOf = (operation: Operation) =>
    ({ coreBearer: 'core', supplierBearer: 'supplier', apiToken: 'chatbot' })[Object.keys(operation.security[0] ?? {})[0] as string];

  it('when an operation is a POST of the core, supplier or chatbot API, it documents the header, the replay marker, the 422 and the 409', () => {
    const groups = posts.map(({ operation }) => groupOf(operation));
    expect(groups.sort()).toEqual([...Array<string>(3).fill('chatbot'), ...Array<string>(17).fill('core'), ...Array<string>(14).fill('supplier')]);
    for (const { path, operation } of posts) {
      const group = groupOf(operation) as 'core' | 'supplier' | 'chatbot';
      expect(group, path).toBeDefined();
      expect(
        operation.parameters.filter((parameter) => parameter.in === 'header').map((parameter) => parameter.name),
        path,
      ).toEqual(['Idempotency-Key']);
      const [error, message] = idempotencyTexts.keyReused[group];
      const example = operation.responses['422']?.content?.['application/json']?.example;
      expect(example, path).toEqual(group === 'supplier' ? { success: false, message } : { success: false, error, message });
      expect(operation.responses['409']?.description, path).toContain('The request first sent with this Idempotency-Key is still running; retry later.');
      const successes = Object.entries(operation.responses).filter(([status]) => status.startsWith('2'));
      expect(successes.length, path).toBeGreaterThan(0);
      for (const [status, response] of successes) expect(Object.keys(response.headers ?? {}), `${path} ${status}`).toContain('Idempotent-Replayed');
    }
  });
});
