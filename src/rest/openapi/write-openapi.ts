import { writeFileSync } from 'node:fs';
import { serviceOpenApiDocument } from './routes.ts';

/**
 * `npm run openapi [-- <file>]`: writes the document GET /openapi.json serves to a file (default
 * openapi.json), for client generators. The server URL is BASE_URL, else http://localhost:PORT (3000).
 */
const file = process.argv[2] ?? 'openapi.json';
const baseUrl = process.env.BASE_URL ?? `http://localhost:${process.env.PORT ?? '3000'}`;
writeFileSync(file, `${JSON.stringify(serviceOpenApiDocument(baseUrl), null, 2)}\n`);
console.log(`${file}: the OpenAPI document for ${baseUrl}`);
