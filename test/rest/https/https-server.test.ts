import { once } from 'node:events';
import { request } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from '../../../src/server/https-server.ts';
import { startApi, type ApiHarness } from '../../support/api-harness.ts';
import { selfSignedCertificate, type SelfSigned } from './self-signed.ts';

type Answer = { status: number | undefined; headers: Record<string, string | string[] | undefined>; body: string };

const getOverHttps = (port: number, pathname: string): Promise<Answer> =>
  new Promise((resolve, reject) => {
    // The certificate is self-signed: the test checks the transport, not the chain of trust.
    const outgoing = request({ host: 'localhost', port, path: pathname, rejectUnauthorized: false }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode, headers: response.headers, body }));
    });
    outgoing.on('error', reject);
    outgoing.end();
  });

describe('the service over HTTPS', () => {
  let certificate: SelfSigned;
  let api: ApiHarness;
  let server: Server;
  let port: number;
  beforeAll(async () => {
    certificate = await selfSignedCertificate();
    api = await startApi({ env: { TLS_CERT_FILE: certificate.certFile, TLS_KEY_FILE: certificate.keyFile } });
    server = createServer(api.runtime);
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await api.close();
    await certificate.remove();
  });

  it('when a certificate and key are configured, GET /health answers 200 over TLS with HSTS', async () => {
    const answer = await getOverHttps(port, '/health');
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body).status).toBe('ok');
    expect(answer.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
  });

  it('when a certificate is configured and BASE_URL is not, links default to https', () => {
    expect(api.runtime.config.baseUrl).toBe('https://localhost:3000');
  });
});
