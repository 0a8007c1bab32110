import { readFile } from 'node:fs/promises';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { selfSignedCertificate } from '../rest/https/self-signed.ts';

/**
 * A supplier's webhook endpoint for the specs: a real HTTPS server on a loopback port, with a
 * self-signed certificate for localhost (trusted by the service through its test option). It keeps
 * every request as it arrived (headers and raw body) and answers what the spec says: 200 by default,
 * a status for a while, or nothing at all.
 */
export type ReceivedDelivery = { path: string; headers: Record<string, string>; body: string; at: number };
export type Answer = number | 'hang';

export type WebhookReceiver = {
  url: (path?: string) => string;
  /** The receiver's certificate file (PEM), for a service process's WEBHOOK_TEST_CA_FILE. */
  certFile: string;
  /** `localhost:<port>`, the service's test exemption. */
  host: string;
  ca: Buffer;
  received: ReceivedDelivery[];
  /** The answers of the next requests, in turn; then 200. */
  answerNext: (...answers: Answer[]) => void;
  /** Every request answered so, until changed (null: back to the queue, then 200). */
  answerAlways: (answer: Answer | null) => void;
  /** Answers by path, until changed (null: back to the other rules). */
  answerWhen: (rule: ((path: string) => Answer) | null) => void;
  /** Each answer comes this long after the request (a receiver doing some work first), or as long as the rule says for its path. */
  answerAfter: (ms: number | ((path: string) => number)) => void;
  close: () => Promise<void>;
};

export const startWebhookReceiver = async (): Promise<WebhookReceiver> => {
  const certificate = await selfSignedCertificate();
  const [cert, key] = await Promise.all([readFile(certificate.certFile), readFile(certificate.keyFile)]);
  const received: ReceivedDelivery[] = [];
  const queue: Answer[] = [];
  let always: Answer | null = null;
  let delayMs: number | ((path: string) => number) = 0;
  let byPath: ((path: string) => Answer) | null = null;
  const hanging = new Set<import('node:http').ServerResponse>();
  const server = https.createServer({ cert, key }, (request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)]));
      received.push({ path: request.url ?? '', headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
      const answer = byPath?.(request.url ?? '') ?? always ?? queue.shift() ?? 200;
      if (answer === 'hang') {
        hanging.add(response);
        return;
      }
      const answerNow = () => {
        response.statusCode = answer;
        response.end('{}');
      };
      // At once unless told to wait: a timer of 0 still waits a turn of the loop (about a millisecond).
      const delay = typeof delayMs === 'number' ? delayMs : delayMs(request.url ?? '');
      if (delay > 0) setTimeout(answerNow, delay);
      else answerNow();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: (path = '/hooks') => `https://localhost:${port}${path}`,
    host: `localhost:${port}`,
    certFile: certificate.certFile,
    ca: cert,
    received,
    answerNext: (...answers) => queue.push(...answers),
    answerAlways: (answer) => (always = answer),
    answerAfter: (ms) => (delayMs = ms),
    answerWhen: (rule) => (byPath = rule),
    close: async () => {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await certificate.remove();
    },
  };
};
