import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createPlatformAdapter } from '../../src/e-invoicing/platform-adapter.ts';

/** A platform that answers without end: 64 KiB chunks for as long as the connection stays open. */
const startEndlessPlatform = async (withLength: boolean) => {
  let sent = 0;
  const closed: Promise<void>[] = [];
  const server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const status = request.method === 'POST' ? 201 : 200;
      response.writeHead(status, { 'content-type': 'application/json', ...(withLength && { 'content-length': String(1024 ** 3) }) });
      const chunk = Buffer.alloc(64 * 1024, ' ');
      response.write('{"id":"REF-1","status":"deposited","padding":"');
      const pour = () => {
        while (!response.destroyed) {
          sent += chunk.length;
          if (!response.write(chunk)) return;
        }
      };
      response.on('drain', pour);
      closed.push(new Promise((resolve) => response.on('close', () => resolve())));
      pour();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    sent: () => sent,
    allClosed: () => Promise.all(closed),
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
};

const file = {
  documentId: 'FA-2026-000001',
  kind: 'e-invoice' as const,
  fileName: 'FA-2026-000001.pdf',
  contentType: 'application/pdf',
  body: Buffer.from('%PDF-1.7'),
};

describe('the platform adapter, facing a platform whose answers never end', () => {
  let platform: Awaited<ReturnType<typeof startEndlessPlatform>>;

  afterEach(async () => {
    await platform.close();
  });

  for (const withLength of [false, true]) {
    it(`when a deposit's answer goes on without end (${withLength ? 'a Content-Length of 1 GiB' : 'chunked'}), the deposit counts as sent, without its details, and the answer is read no further`, async () => {
      platform = await startEndlessPlatform(withLength);
      const adapter = createPlatformAdapter({ url: platform.url, credentials: { kind: 'bearer', token: 't' } });

      expect(await adapter.transmit(file)).toEqual({ ok: true, status: 201, platformReference: null, platformStatus: null });
      await platform.allClosed();
      // What the platform managed to push before the connection was dropped: the socket buffers' worth, not the answer.
      expect(platform.sent()).toBeLessThan(32 * 1024 * 1024);
    });
  }

  it('when a status answer goes on without end, the status is not read, and says why', async () => {
    platform = await startEndlessPlatform(false);
    const adapter = createPlatformAdapter({ url: platform.url, credentials: { kind: 'bearer', token: 't' } });

    expect(await adapter.statusOf('FA-2026-000001')).toEqual({ ok: false, error: 'status not read: the answer exceeds 64 KiB' });
    await platform.allClosed();
  });
});
