import type Router from '@koa/router';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { orderImportJsonSchema } from '../../../src/contracts/json-schemas.ts';
import { applicationRouters } from '../../../src/server/application-routers.ts';
import { openApiPath } from '../../../src/rest/openapi/document.ts';
import { startApi, type ApiHarness } from '../../support/api-harness.ts';
import { inlined, refsIn, resolvePointer, type Json } from './documented-schema.ts';

const baseUrl = 'https://orders.example.test';
const labelPath = '/api/files/labels/{supplier}/{service_order_id}.pdf';
const httpMethods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** "GET /path" for each route a router answers; `router.all` catch-alls (the supplier 405s) are not operations. */
const operationsOf = (router: Router): string[] =>
  router.stack
    .filter((layer) => layer.methods.length > 0 && !layer.methods.includes('TRACE'))
    .flatMap((layer) => layer.methods.filter((method) => method !== 'HEAD').map((method) => `${method} ${openApiPath(String(layer.path))}`));

describe('GET /openapi.json', () => {
  let api: ApiHarness;
  let document: Json;
  let paths: Record<string, Record<string, Json>>;
  beforeAll(async () => {
    api = await startApi({ env: { BASE_URL: baseUrl } });
    const response = await api.request.get('/openapi.json');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    document = response.body as Json;
    paths = document.paths as typeof paths;
  });
  afterAll(async () => api.close());

  it('when called without a token, it answers an OpenAPI 3.1 document for the configured base URL', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.servers).toEqual([{ url: baseUrl }]);
    expect((document.info as Json).title).toEqual(expect.any(String));
  });

  it('when validated against the OpenAPI 3.1 schema, the document is valid', async () => {
    const result = await new Validator().validate(document);
    expect(result.errors ?? [], JSON.stringify(result.errors, null, 1)).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("when the application's routers are listed, every route is documented with its methods, and nothing else", () => {
    // The files router matches any path under /api/files (its handler refuses every shape but a label's): documented by that shape.
    // GraphQL is described by its own schema (POST /graphql), not by this document.
    const served = applicationRouters(api.runtime)
      .flatMap(operationsOf)
      .filter((operation) => !operation.split(' ')[1]!.startsWith('/graphql'))
      .map((operation) => operation.replace('/api/files/*path', labelPath));
    const documented = Object.entries(paths).flatMap(([path, item]) =>
      Object.keys(item)
        .filter((key) => httpMethods.includes(key))
        .map((method) => `${method.toUpperCase()} ${path}`),
    );
    // 67, and the suppliers' seven webhook routes under each supplier's segment.
    expect(served).toHaveLength(81);
    expect(new Set(served).size).toBe(served.length);
    expect(documented.sort()).toEqual(served.sort());
  });

  it('when an example is given, request or response, it is valid against the schema beside it', () => {
    let examples = 0;
    for (const [path, item] of Object.entries(paths)) {
      for (const [method, operation] of Object.entries(item)) {
        const contents = [
          ...Object.entries((operation.responses ?? {}) as Record<string, Json>).map(([status, response]) => [status, response.content] as const),
          ['request', (operation.requestBody as Json | undefined)?.content] as const,
        ];
        for (const [where, content] of contents) {
          const json = (content as Record<string, Json> | undefined)?.['application/json'];
          if (json?.example === undefined) continue;
          examples += 1;
          const validator = z.fromJSONSchema(inlined(document, json.schema) as Parameters<typeof z.fromJSONSchema>[0]);
          expect(validator.safeParse(json.example).error?.issues ?? [], `${method} ${path} ${where}`).toEqual([]);
        }
      }
    }
    expect(examples).toBeGreaterThan(60);
  });

  it('when read as OpenAPI, every operation has a unique id, documented responses with bodies, and its path parameters', () => {
    const operationIds = new Set<string>();
    for (const [path, item] of Object.entries(paths)) {
      for (const [method, operation] of Object.entries(item)) {
        const where = `${method} ${path}`;
        expect(operationIds.has(operation.operationId as string), where).toBe(false);
        operationIds.add(operation.operationId as string);
        const responses = Object.entries(operation.responses as Record<string, Json>);
        // Every operation that can refuse its caller says how; the reference page and document, and the liveness probe, cannot.
        expect(responses.length, where).toBeGreaterThan((operation.tags as string[]).includes('reference') || path === '/health/live' ? 0 : 1);
        for (const [status, response] of responses) {
          expect(status, where).toMatch(/^[1-5]\d\d$/);
          expect(response.description, `${where} ${status}`).toEqual(expect.any(String));
          // JSON everywhere, but the label itself and the file a SAV download answers.
          const content = response.content as Record<string, Json>;
          const mediaType =
            status !== '200'
              ? 'application/json'
              : path === labelPath || path.startsWith('/api/sale-invoice/') || path.startsWith('/api/sale-credit-note/')
                ? 'application/pdf'
                : path.endsWith('/files/{fileId}')
                  ? 'image/*'
                  : path === '/docs' || path === '/' || (path.startsWith('/dashboard') && !path.startsWith('/dashboard/assets/'))
                    ? 'text/html'
                    : path === '/metrics'
                      ? 'text/plain'
                      : path === '/docs/assets/{file}' || path === '/dashboard/assets/{file}'
                        ? '*/*'
                        : 'application/json';
          // But Node's own 431 (a request head over 16 KiB, before any route), which has no body.
          if (status === '431') expect(content, `${where} ${status}`).toBeUndefined();
          else expect(content[mediaType]?.schema, `${where} ${status}`).toBeDefined();
        }
        const parameters = operation.parameters as Json[];
        const templated = [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
        expect(
          parameters.filter((parameter) => parameter.in === 'path').map((parameter) => parameter.name),
          where,
        ).toEqual(templated);
        for (const parameter of parameters) expect(parameter.schema, `${where} ${String(parameter.name)}`).toEqual(expect.any(Object));
      }
    }
  });

  it("when an operation requires a token, its group's scheme is declared: a bearer scheme for the suppliers, another for the core, the supplier's or a signed link for the labels, X-API-Token for the chatbot; every core error is the English envelope", () => {
    const schemes = (document.components as Json).securitySchemes as Json;
    expect(schemes).toMatchObject({
      coreBearer: { type: 'http', scheme: 'bearer' },
      supplierBearer: { type: 'http', scheme: 'bearer' },
      apiToken: { type: 'apiKey', in: 'header', name: 'X-API-Token' },
      metricsBearer: { type: 'http', scheme: 'bearer' },
      auditorBearer: { type: 'http', scheme: 'bearer' },
    });
    for (const [path, item] of Object.entries(paths)) {
      for (const operation of Object.values(item)) {
        const [tag] = operation.tags as string[];
        const expected =
          path === labelPath
            ? [{ supplierBearer: [] }, {}]
            : tag!.startsWith('supplier-')
              ? [{ supplierBearer: [] }]
              : tag!.startsWith('core-')
                ? [{ coreBearer: [] }]
                : tag === 'chatbot'
                  ? [{ apiToken: [] }]
                  : tag === 'metrics'
                    ? [{ metricsBearer: [] }]
                    : path.startsWith('/api/audit/')
                      ? [{ auditorBearer: [] }]
                      : [];
        expect(operation.security, path).toEqual(expected);
        if (expected.length > 0) expect(Object.keys(operation.responses as Json), path).toContain('401');
        if (!tag!.startsWith('core-')) continue;
        for (const [status, response] of Object.entries(operation.responses as Record<string, Json>)) {
          if (status.startsWith('2') || status === '431') continue;
          const example = ((response.content as Record<string, Json>)['application/json']!.example ?? {}) as Json;
          expect(example, `${path} ${status}`).toMatchObject({ success: false, error: expect.any(String), message: expect.stringMatching(/^[\x20-\x7e’]+$/) });
        }
      }
    }
  });

  it('when an answer links to other operations (the fuzzer follows them), each link names an operation of the document and its parameters', () => {
    const operations = new Map(
      Object.values(paths).flatMap((item) => Object.values(item).map((operation) => [operation.operationId as string, operation] as const)),
    );
    let links = 0;
    for (const item of Object.values(paths)) {
      for (const operation of Object.values(item)) {
        for (const response of Object.values(operation.responses as Record<string, Json>)) {
          for (const [name, link] of Object.entries((response.links ?? {}) as Record<string, Json>)) {
            links += 1;
            const target = operations.get(link.operationId as string);
            expect(target, `${String(operation.operationId)} -> ${name}`).toBeDefined();
            const names = ((target!.parameters ?? []) as Json[]).map((parameter) => parameter.name);
            for (const parameter of Object.keys((link.parameters ?? {}) as Json)) expect(names, `${name}.${parameter}`).toContain(parameter);
            if (link.requestBody !== undefined) expect(target!.requestBody, name).toBeDefined();
          }
        }
      }
    }
    expect(links).toBeGreaterThan(10);
  });

  it('when a schema is referenced, the reference resolves within the document', () => {
    const refs = refsIn(document);
    expect(refs.length).toBeGreaterThan(0);
    for (const { at, ref } of refs) {
      expect(ref, at).toMatch(/^#\//);
      expect(resolvePointer(document, ref), `${at} -> ${ref}`).toEqual(expect.any(Object));
    }
  });

  it('when the label route is documented, its signed link parameters are optional texts, their shapes told where they matter (no token)', () => {
    const parameters = (paths[labelPath]!.get!.parameters as Json[]).filter((parameter) => parameter.in === 'query');
    expect(parameters.map(({ name, required }) => ({ name, required }))).toEqual([
      { name: 'expires', required: false },
      { name: 'signature', required: false },
    ]);
    // With the supplier's token, a link of any shape is served (the token decides): a pattern would call those requests invalid.
    expect(parameters.map((parameter) => parameter.schema)).toEqual([{ type: 'string' }, { type: 'string' }]);
    expect(parameters.map((parameter) => parameter.description)).toEqual([
      expect.stringContaining('digits without a leading zero'),
      expect.stringContaining('43 base64url characters'),
    ]);
    expect(Object.keys(paths[labelPath]!.get!.responses as Json)).toEqual(['200', '401', '403', '404', '500']);
  });

  it('when sav-status is documented, its query states exactly one of email and increment_id (a blank one counting as absent), as the route reads it', () => {
    const [query, ...others] = paths['/api/customer/sav-status']!.get!.parameters as Json[];
    expect(others).toEqual([]);
    expect(query).toMatchObject({ in: 'query', style: 'form', explode: true, required: true });
    const documented = z.fromJSONSchema(query!.schema as Parameters<typeof z.fromJSONSchema>[0]);
    const accepted = (parameters: Record<string, string>) => documented.safeParse(parameters).success;

    expect(accepted({ email: 'claire.martin@example.org' })).toBe(true);
    expect(accepted({ increment_id: '100004512', product_sku: 'CAN-OSLO-3P-GRY' })).toBe(true);
    expect(accepted({ email: '', increment_id: '100004512' })).toBe(true);
    expect(accepted({ email: 'claire.martin@example.org', increment_id: '100004512' })).toBe(false);
    expect(accepted({})).toBe(false);
    expect(accepted({ email: '', increment_id: '' })).toBe(false);
  });

  it('when POST /api/sav is documented, its body states exactly one of product_sku and sale_product_id', () => {
    const body = ((paths['/api/sav']!.post!.requestBody as Json).content as Record<string, Json>)['application/json']!.schema as Json;
    const documented = z.fromJSONSchema(inlined(document, body) as Parameters<typeof z.fromJSONSchema>[0]);
    const request = { increment_id: '100004512', email: 'claire.martin@example.org', complaint_name: 'Casse', complaint: 'Un pied est cassé.' };

    expect(documented.safeParse({ ...request, product_sku: 'CAN-OSLO-3P-GRY' }).success).toBe(true);
    expect(documented.safeParse({ ...request, sale_product_id: 12 }).success).toBe(true);
    expect(documented.safeParse({ ...request, product_sku: 'CAN-OSLO-3P-GRY', sale_product_id: 12 }).success).toBe(false);
    expect(documented.safeParse(request).success).toBe(false);
  });

  it('when the supplier 401 is documented, its message is the exact text the suppliers compare', () => {
    const unauthorized = (resolvePointer(document, '#/components/schemas/SupplierUnauthorized') as Json).properties as Json;
    expect(unauthorized.message).toMatchObject({ const: 'Invalid or missing Bearer token' });
    expect(unauthorized.error).toMatchObject({ const: 'Unauthorized' });
  });

  it('when a body is required, the request schema is the route one, with its required fields', () => {
    const body = (operation: Json) => ((operation.requestBody as Json).content as Record<string, Json>)['application/json']!.schema as Json;
    expect(body(paths['/api/supplier-a/ship-sale']!.post!)).toMatchObject({ required: ['service_order_id'] });
    expect(body(paths['/api/sav']!.post!)).toMatchObject({ required: ['increment_id', 'email', 'complaint_name', 'complaint'] });
    expect(body(paths['/api/sale-sav/{id}/resolve']!.post!)).toMatchObject({ required: ['resolution'], additionalProperties: false });
    expect(paths['/api/sale-sav/{id}/close']!.post!.requestBody).toMatchObject({ required: false });
  });

  it('when the order import is documented, its body is the order-import contract as the CLI prints it, unknown fields accepted', () => {
    const body = ((paths['/api/api-add-new-order-api-shopping']!.post!.requestBody as Json).content as Record<string, Json>)['application/json']!;
    expect(body.schema).toEqual({ $ref: '#/components/schemas/CoreOrderImport' });
    const { $schema: _dialect, ...contract } = orderImportJsonSchema();
    expect(resolvePointer(document, '#/components/schemas/CoreOrderImport')).toEqual(contract);
    expect(contract).toMatchObject({ title: 'Order import', additionalProperties: true });
  });
});
