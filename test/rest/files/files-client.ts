import { access } from 'node:fs/promises';
import type http from 'node:http';
import path from 'node:path';
import type { Response } from 'supertest';
import type { ApiHarness } from '../../support/api-harness.ts';

/** GET /api/files requests as a supplier's client sends them, with the body kept as bytes. */

export const collect = (res: http.IncomingMessage, done: (error: Error | null, body: Buffer) => void): void => {
  const chunks: Buffer[] = [];
  res.on('data', (chunk: Buffer) => chunks.push(chunk));
  res.on('end', () => done(null, Buffer.concat(chunks)));
};

export const getFile = (api: ApiHarness, url: string, token?: string) => {
  // Supertest hands the parser the Node response, whatever its types say.
  const request = api.request
    .get(url)
    .buffer(true)
    .parse((res, done) => collect(res as unknown as http.IncomingMessage, done));
  return token ? request.set('Authorization', `Bearer ${token}`) : request;
};

export const labelUrl = (supplier: string, serviceOrderId: string): string => `/api/files/labels/${supplier}/${serviceOrderId}.pdf`;

export const jsonOf = (response: Response): unknown => JSON.parse((response.body as Buffer).toString('utf8'));

export const notFoundBody = { success: false, message: 'File not found' };
export const unauthorizedBody = { error: 'Unauthorized', message: 'Invalid or missing Bearer token' };

/** Whether the label PDF of a line has been rendered into the file storage. */
export const labelRendered = async (api: ApiHarness, supplier: string, serviceOrderId: string): Promise<boolean> =>
  access(path.join(api.dataDir, 'files', 'labels', supplier, `${serviceOrderId}.pdf`)).then(
    () => true,
    () => false,
  );
