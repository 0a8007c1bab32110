import { mkdir, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { revokeAccessToken } from '../../../src/events/access/access-token-handlers.ts';
import { systemContext } from '../../../src/events/command-context.ts';
import { createRuntimeApp } from '../../../src/server/app.ts';
import { frozenClock, importLabelOrder, saleStreamLength } from '../../labels/label-fixtures.ts';
import { startApi, type ApiHarness } from '../../support/api-harness.ts';
import { collect, getFile, jsonOf, labelRendered, labelUrl, notFoundBody, unauthorizedBody } from './files-client.ts';

describe('GET /api/files: who may fetch which file', () => {
  let api: ApiHarness;
  let supplierA: string;
  let supplierB: string;
  beforeAll(async () => {
    api = await startApi({ clock: frozenClock });
    supplierA = await api.tokenFor('supplier-a');
    supplierB = await api.tokenFor('supplier-b');
  });
  afterAll(async () => api.close());

  const get = (url: string, token?: string) => getFile(api, url, token);

  describe('who may fetch a label', () => {
    it('when no token, a malformed or unknown one, or a revoked one is sent, it answers 401 and makes no label', async () => {
      const { incrementId, supplierALine } = await importLabelOrder(api.runtime);
      const recorded = await saleStreamLength(api.runtime, incrementId);
      const revoked = await api.tokenFor('supplier-a');
      await revokeAccessToken(api.runtime.write, revoked.split('.')[0]!, systemContext());
      const unknown = `${'0'.repeat(16)}.${'A'.repeat(43)}`;

      for (const token of [undefined, 'not-a-token', unknown, revoked]) {
        const response = await get(labelUrl('supplier-a', supplierALine), token);
        expect(response.status, String(token)).toBe(401);
        expect(jsonOf(response)).toEqual(unauthorizedBody);
      }
      expect(await labelRendered(api, 'supplier-a', supplierALine)).toBe(false);
      expect(await saleStreamLength(api.runtime, incrementId)).toBe(recorded);
    });

    it('when a core or chatbot token is sent, it answers 401', async () => {
      const { supplierALine } = await importLabelOrder(api.runtime);
      for (const group of ['core', 'chatbot'] as const) {
        const response = await get(labelUrl('supplier-a', supplierALine), await api.tokenFor(group));
        expect(response.status, group).toBe(401);
        expect(jsonOf(response)).toEqual(unauthorizedBody);
      }
    });

    it('when another supplier asks for a label, it answers 404 as for a missing file, and makes no label', async () => {
      const { incrementId, supplierALine } = await importLabelOrder(api.runtime);
      const recorded = await saleStreamLength(api.runtime, incrementId);

      const underOwner = await get(labelUrl('supplier-a', supplierALine), supplierB);
      const underItself = await get(labelUrl('supplier-b', supplierALine), supplierB);

      for (const response of [underOwner, underItself]) {
        expect(response.status).toBe(404);
        expect(jsonOf(response)).toEqual(notFoundBody);
      }
      expect(await labelRendered(api, 'supplier-a', supplierALine)).toBe(false);
      expect(await saleStreamLength(api.runtime, incrementId)).toBe(recorded);
    });

    it("when the label was already made, another supplier's token still gets 404", async () => {
      const { supplierALine } = await importLabelOrder(api.runtime);
      expect((await get(labelUrl('supplier-a', supplierALine), supplierA)).status).toBe(200);

      const response = await get(labelUrl('supplier-a', supplierALine), supplierB);

      expect(response.status).toBe(404);
      expect(jsonOf(response)).toEqual(notFoundBody);
    });
  });

  it('when the line does not exist or ships from own stock, it answers 404', async () => {
    const { incrementId, ownStockLine } = await importLabelOrder(api.runtime);
    for (const serviceOrderId of [ownStockLine, `${incrementId}_999999`, '999999999_1']) {
      const response = await get(labelUrl('supplier-a', serviceOrderId), supplierA);
      expect(response.status, serviceOrderId).toBe(404);
      expect(jsonOf(response)).toEqual(notFoundBody);
    }
  });

  describe('paths that try to leave the labels folder', () => {
    let server: http.Server;
    let port: number;
    beforeAll(async () => {
      server = http.createServer(createRuntimeApp(api.runtime).callback());
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      port = (server.address() as AddressInfo).port;
    });
    afterAll(async () => new Promise<void>((resolve) => server.close(() => resolve())));

    // Sent byte for byte: an HTTP client would normalise `..` and backslashes before they reach the server.
    const rawGet = (rawPath: string, token: string) =>
      new Promise<{ status: number; type: string; body: Buffer }>((resolve, reject) => {
        const request = http.request({ host: '127.0.0.1', port, path: rawPath, headers: { Authorization: `Bearer ${token}` } }, (res) => {
          collect(res, (_error, body) => resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'] ?? '', body }));
        });
        request.on('error', reject);
        request.end();
      });

    it('when a path holds .., encoded characters, backslashes, NUL or is absolute, it is refused and serves no file', async () => {
      const { incrementId, supplierALine } = await importLabelOrder(api.runtime);
      const recorded = await saleStreamLength(api.runtime, incrementId);
      const bait = path.join(api.dataDir, 'files', 'labels', 'bait.pdf');
      await mkdir(path.dirname(bait), { recursive: true });
      await writeFile(bait, '%PDF-1.3 bait');
      const encodedFirstDigit = `%3${supplierALine[0]}${supplierALine.slice(1)}`;

      const attempts = [
        '/api/files/labels/supplier-a/../bait.pdf',
        '/api/files/labels/supplier-a/..%2fbait.pdf',
        '/api/files/labels/supplier-a/%2e%2e/bait.pdf',
        '/api/files/labels/supplier-a/%2E%2E%2Fbait.pdf',
        '/api/files/labels/supplier-a/%2e%2e%2f%2e%2e%2f%2e%2e%2fevents.sqlite',
        '/api/files/labels/supplier-a/../../../events.sqlite',
        `/api/files/labels/supplier-a/../supplier-a/${supplierALine}.pdf`,
        `/api/files/labels\\supplier-a\\${supplierALine}.pdf`,
        `/api/files/labels%5csupplier-a%5c${supplierALine}.pdf`,
        '/api/files//etc/passwd',
        '/api/files/%2fetc%2fpasswd',
        `/api/files/labels/supplier-a/${supplierALine}.pdf%00`,
        `/api/files/labels/supplier-a/${supplierALine}.pdf%00.txt`,
        `/api/files/labels/supplier-a/${encodedFirstDigit}.pdf`,
        `/api/files/labels/supplier-a/${supplierALine}.pdf/`,
        '/api/files/labels/bait.pdf',
      ];
      for (const attempt of attempts) {
        const response = await rawGet(attempt, supplierA);
        expect([400, 404], attempt).toContain(response.status);
        expect(response.type, attempt).not.toContain('application/pdf');
        expect(response.body.includes('%PDF'), attempt).toBe(false);
      }
      expect(await labelRendered(api, 'supplier-a', supplierALine)).toBe(false);
      expect(await saleStreamLength(api.runtime, incrementId)).toBe(recorded);
    });
  });
});
