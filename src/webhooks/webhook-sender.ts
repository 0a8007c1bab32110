import type { LookupAddress } from 'node:dns';
import https from 'node:https';
import tls from 'node:tls';
import { checkTarget, pinnedLookup } from '../files/safe-fetch.ts';
import { RemoteFileError } from '../files/remote-file-error.ts';

/**
 * One POST of a signed message to a subscription's HTTPS endpoint, under the SAV media's address
 * policy checked again at each delivery (DNS can change after registration): every address of the host
 * must be public, and the connection goes to the address checked (a host's address is checked again
 * after a second at most). Connections are kept alive per
 * subscription while its host keeps resolving to the same address (a new address, a new connection).
 * Any answer but 2xx within the time allowed is a failure; redirects are not followed.
 */

export type WebhookSendOptions = {
  /** Default 10 s, for the whole request: connection, TLS, answer. */
  timeoutMs?: number;
  /** `host:port` exempt from the address check: tests' loopback receivers only, never production (config.ts). */
  allowHosts?: readonly string[];
  /** Certificates trusted beside the system's: the tests' self-signed receiver. */
  ca?: string | Buffer;
  resolve?: (hostname: string) => Promise<LookupAddress[]>;
  /** How long a host's checked address is used before it is resolved and checked again (default 1 s; 0: at every delivery). */
  addressTtlMs?: number;
};

export type SendOutcome = { ok: true; status: number } | { ok: false; status: number | null; error: string };

export type WebhookSender = {
  send: (subscriptionId: string, url: string, headers: Record<string, string>, body: string, signal?: AbortSignal) => Promise<SendOutcome>;
  /** Closes the kept connections. */
  close: () => void;
};

export const createWebhookSender = (options: WebhookSendOptions = {}): WebhookSender => {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const addressTtlMs = options.addressTtlMs ?? 1_000;
  const agents = new Map<string, { address: string; agent: https.Agent }>();
  // The address each host was last checked at: a refused one is never kept, and the connection goes
  // to the address checked, whatever the resolver answers meanwhile.
  const checked = new Map<string, { address: string; family: 4 | 6; until: number }>();
  const checkedTarget = async (url: URL, signal: AbortSignal) => {
    const kept = checked.get(url.host);
    if (kept && kept.until > Date.now()) return kept;
    const target = await checkTarget(url, options, signal);
    if (addressTtlMs > 0) checked.set(url.host, { address: target.address, family: target.family, until: Date.now() + addressTtlMs });
    return target;
  };

  // Extra certificates as a secure context made once: given as `ca`, they would be copied into the
  // agent's key of every request (https.Agent's getName), a tenth of a millisecond each.
  const secureContext = options.ca ? tls.createSecureContext({ ca: options.ca }) : undefined;
  const agentFor = (subscriptionId: string, address: string, family: 4 | 6): https.Agent => {
    const kept = agents.get(subscriptionId);
    if (kept?.address === address) return kept.agent;
    kept?.agent.destroy();
    const agent = new https.Agent({ keepAlive: true, maxSockets: 1, lookup: pinnedLookup({ address, family }), ...(secureContext && { secureContext }) });
    agents.set(subscriptionId, { address, agent });
    return agent;
  };

  const send: WebhookSender['send'] = async (subscriptionId, rawUrl, headers, body, stop) => {
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = stop ? AbortSignal.any([timeout, stop]) : timeout;
    let url: URL;
    try {
      url = new URL(rawUrl);
    } catch {
      return { ok: false, status: null, error: 'the endpoint is not a valid URL' };
    }
    if (url.protocol !== 'https:') return { ok: false, status: null, error: 'the endpoint must be https' };
    let target;
    try {
      target = await checkedTarget(url, signal);
    } catch (error) {
      if (error instanceof RemoteFileError) return { ok: false, status: null, error: `refused: ${error.message}` };
      return { ok: false, status: null, error: timeout.aborted ? `no answer within ${timeoutMs / 1000} s` : 'the host could not be resolved' };
    }
    const agent = agentFor(subscriptionId, target.address, target.family);
    return new Promise<SendOutcome>((resolve) => {
      // The time limit and the service stopping break the request off through a listener of the
      // signal, removed once it settles: a `signal` option would add one to the kept-alive socket per request.
      const breakOff = () => request.destroy(new Error('broken off'));
      const settle = (outcome: SendOutcome) => {
        signal.removeEventListener('abort', breakOff);
        resolve(outcome);
      };
      const request = https.request(
        url,
        {
          method: 'POST',
          agent,
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'user-agent': 'sav-order-service-webhooks/1', ...headers },
        },
        (response) => {
          const status = response.statusCode ?? 0;
          // The answer's body is not read beyond what arrives: drained and dropped.
          response.on('error', () => undefined);
          response.resume();
          response.on('end', () =>
            settle(status >= 200 && status <= 299 ? { ok: true, status } : { ok: false, status, error: `the endpoint answered HTTP ${status}` }),
          );
        },
      );
      request.on('error', (error: NodeJS.ErrnoException) => {
        if (timeout.aborted) settle({ ok: false, status: null, error: `no answer within ${timeoutMs / 1000} s` });
        else if (stop?.aborted) settle({ ok: false, status: null, error: 'the delivery was broken off (the service stopping)' });
        else settle({ ok: false, status: null, error: `the endpoint could not be reached (${error.code ?? error.message})` });
      });
      if (signal.aborted) breakOff();
      else signal.addEventListener('abort', breakOff, { once: true });
      request.end(body);
    });
  };

  return {
    send,
    close: () => {
      for (const { agent } of agents.values()) agent.destroy();
      agents.clear();
      checked.clear();
    },
  };
};
