import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * An approved platform for the specs: a real HTTP server on a loopback port, speaking the shape the
 * service's adapter assumes (docs/production.md). It keeps every deposit as it arrived and stores each
 * document once by its Idempotency-Key, answering a repeat as it answered the first; it can be down
 * (its port closed), hold its answer (a deposit stored, its answer never sent), and give statuses.
 */
export type Deposit = { id: string; kind: string; contentType: string; authorization: string; body: Buffer };

export type StandInPlatform = {
  url: string;
  token: string;
  /** Every deposit received, repeats included. */
  received: Deposit[];
  /** The documents kept, one per identifier. */
  stored: Map<string, Deposit>;
  /** How many deposits carried this identifier. */
  receivedTimes: (id: string) => number;
  /** The next deposit is stored and its answer held until the platform closes (a service killed meanwhile never hears it). */
  holdNextAnswer: () => void;
  /** The next deposit is stored, then answered 500 (its answer lost, to the service). */
  loseNextAnswer: () => void;
  /** The status a document's GET answers from now on. */
  setStatus: (id: string, status: string, reason?: string) => void;
  down: () => Promise<void>;
  up: () => Promise<void>;
  close: () => Promise<void>;
};

export const startStandInPlatform = async (token = 'platform-token-of-the-specs'): Promise<StandInPlatform> => {
  const received: Deposit[] = [];
  const stored = new Map<string, Deposit>();
  const statuses = new Map<string, { status: string; reason?: string }>();
  const held = new Set<http.ServerResponse>();
  let next: 'hold' | 'lose' | null = null;

  const answer = (response: http.ServerResponse, status: number, body: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  };

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.headers.authorization !== `Bearer ${token}`) return answer(response, 401, { error: 'invalid credentials' });
      const id = String(request.headers['idempotency-key'] ?? '');
      if (request.method === 'GET' && request.url?.startsWith('/documents/')) {
        const wanted = decodeURIComponent(request.url.slice('/documents/'.length));
        const status = statuses.get(wanted);
        return stored.has(wanted)
          ? answer(response, 200, { status: status?.status ?? 'deposited', reason: status?.reason ?? null })
          : answer(response, 404, {});
      }
      if (request.method !== 'POST' || request.url !== '/documents' || !id)
        return answer(response, 400, { error: 'a deposit is POST /documents with an Idempotency-Key' });
      const deposit = {
        id,
        kind: String(request.headers['x-document-kind']),
        contentType: String(request.headers['content-type']),
        authorization: request.headers.authorization,
        body: Buffer.concat(chunks),
      };
      received.push(deposit);
      if (!stored.has(id)) stored.set(id, deposit);
      const what = next;
      next = null;
      if (what === 'hold') return void held.add(response);
      if (what === 'lose') return answer(response, 500, { error: 'lost' });
      answer(response, 201, { id: `pa-${id}`, status: 'deposited' });
    });
  });

  let port = 0;
  const listen = () => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const down = async () => {
    for (const response of held) response.destroy();
    held.clear();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  await listen();
  port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}`,
    token,
    received,
    stored,
    receivedTimes: (id) => received.filter((deposit) => deposit.id === id).length,
    holdNextAnswer: () => (next = 'hold'),
    loseNextAnswer: () => (next = 'lose'),
    setStatus: (id, status, reason) => statuses.set(id, { status, reason }),
    down,
    up: listen,
    close: async () => {
      if (server.listening) await down();
    },
  };
};
