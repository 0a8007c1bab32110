import { readFile } from 'node:fs/promises';
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { selfSignedCertificate } from '../rest/https/self-signed.ts';

/**
 * A supplier's webhook endpoint in a thread of its own: a loopback HTTPS server answering 200 at once,
 * that keeps each delivery's id and arrival and gives them when asked. Unlike the specs' receiver
 * (webhook-receiver.ts), it costs the event loop of the service under test nothing per delivery, so
 * that a spec can count that loop's turns.
 */
export type ThreadReceiver = {
  url: (path?: string) => string;
  host: string;
  ca: Buffer;
  /** The ids received so far, in their order of arrival. */
  received: () => Promise<string[]>;
  close: () => Promise<void>;
};

const serverSource = `
const https = require('node:https');
const { parentPort, workerData } = require('node:worker_threads');
const received = [];
const server = https.createServer({ cert: workerData.cert, key: workerData.key }, (request, response) => {
  request.resume();
  request.on('end', () => {
    received.push(String(request.headers['webhook-id']));
    response.statusCode = 200;
    response.end('{}');
  });
});
server.listen(0, '127.0.0.1', () => parentPort.postMessage({ port: server.address().port }));
parentPort.on('message', () => parentPort.postMessage({ received }));
`;

export const startWebhookReceiverThread = async (): Promise<ThreadReceiver> => {
  const certificate = await selfSignedCertificate();
  const [cert, key] = await Promise.all([readFile(certificate.certFile), readFile(certificate.keyFile)]);
  const worker = new Worker(serverSource, { eval: true, workerData: { cert, key } });
  const [{ port }] = (await once(worker, 'message')) as [{ port: number }];
  return {
    url: (path = '/hooks') => `https://localhost:${port}${path}`,
    host: `localhost:${port}`,
    ca: cert,
    received: async () => {
      worker.postMessage('report');
      const [{ received }] = (await once(worker, 'message')) as [{ received: string[] }];
      return received;
    },
    close: async () => {
      await worker.terminate();
      await certificate.remove();
    },
  };
};
