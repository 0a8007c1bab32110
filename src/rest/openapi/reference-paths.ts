import { z } from 'zod';
import type { RouteDoc } from './document.ts';
import { referenceAssetParams } from './reference-page.ts';

/** This document and its reference page (openapi/routes.ts), without authentication. */

const referenceError = z.object({ success: z.literal(false), error: z.string(), message: z.string() });

export const referenceRouteDocs = (): RouteDoc[] => [
  {
    method: 'get',
    path: '/',
    operationId: 'getHomePage',
    summary: "The service's home page: where to go, which header each API takes, how to get a token",
    description: 'HTML for a browser; JSON (`links`, `apiGroups`, `tokenCommand`) for a client that asks for it.',
    tags: ['reference'],
    responses: { 200: { description: 'The page.', file: 'text/html' } },
  },
  {
    method: 'get',
    path: '/openapi.json',
    operationId: 'getOpenApiDocument',
    summary: 'This OpenAPI 3.1 document',
    description: 'Clients generate their code from it; `npm run openapi` writes the same document to a file.',
    tags: ['reference'],
    responses: { 200: { description: 'The document.', body: z.record(z.string(), z.unknown()) } },
  },
  {
    method: 'get',
    path: '/docs',
    operationId: 'getReferencePage',
    summary: 'The API reference page (Swagger UI over this document, served locally)',
    tags: ['reference'],
    responses: { 200: { description: 'The page.', file: 'text/html' } },
  },
  {
    method: 'get',
    path: '/docs/assets/:file',
    operationId: 'getReferenceAsset',
    summary: 'A file of the reference page',
    tags: ['reference'],
    pathParams: referenceAssetParams,
    responses: {
      200: { description: 'The file: a style sheet, a script or the icon.', file: '*/*' },
      404: { description: 'No such file.', body: referenceError, example: { success: false, error: 'Not Found', message: 'No reference file index.html' } },
    },
  },
];
