import type { LookupAddress } from 'node:dns';
import { lookup } from 'node:dns/promises';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { isInternalAddress } from './address-policy.ts';
import { RemoteFileError } from './remote-file-error.ts';
import { saveStream } from './save-stream.ts';

/**
 * Fetches a file named by a client into a local file without letting the client reach the internal
 * network (SSRF): only http(s); every address the host resolves to must be public; the connection goes
 * to the address that was checked (pinned, so a second DNS answer cannot swap it: DNS rebinding);
 * redirects are followed by hand, each hop checked the same way; size and time are capped.
 */

export type SafeFetchOptions = {
  maxBytes: number;
  /** For the whole fetch: resolution, redirects and body. */
  timeoutMs: number;
  /** Default 3. */
  maxRedirects?: number;
  /**
   * Origins `host:port` (as written in the URL, an IPv6 address in brackets) exempt from the address
   * check. Only for tests that serve files from loopback: it is set in code, never from a request.
   */
  allowHosts?: readonly string[];
  /** Resolves a host name to all its addresses; `dns.lookup` by default. */
  resolve?: (hostname: string) => Promise<LookupAddress[]>;
  /** Breaks the fetch off (the service stopping): it then fails as `remote_failed`, whatever the time left. */
  signal?: AbortSignal;
};

export type FetchedFile = {
  /** The URL the file was read from, after redirects. */
  finalUrl: string;
  size: number;
  /** The first bytes, for the content check. */
  head: Buffer;
  /** The Content-Type the host announced: informative only, the content decides. */
  declaredType: string | null;
};

const defaultMaxRedirects = 3;
const redirectStatuses = new Set([301, 302, 303, 307, 308]);

/** A URL with the address its host was checked at: connections go there, whatever DNS answers later. */
export type Target = { url: URL; address: string; family: 4 | 6 };

const refused = (message: string) => new RemoteFileError('url_refused', message);
const bareHost = (url: URL): string => url.hostname.replace(/^\[(.*)\]$/, '$1');
const portOf = (url: URL): number => Number(url.port || (url.protocol === 'https:' ? 443 : 80));
const mebibytes = (bytes: number): string => `${Math.round((bytes / 1024 / 1024) * 100) / 100} MiB`;

const resolveAll = (hostname: string): Promise<LookupAddress[]> => lookup(hostname, { all: true, verbatim: true });

/** Rejects with the signal's reason once it aborts: dns.lookup itself cannot be cancelled. */
const untilAborted = <T>(promise: Promise<T>, signal: AbortSignal): Promise<T> =>
  new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });

const addressesOf = async (url: URL, options: Pick<SafeFetchOptions, 'resolve'>, signal: AbortSignal): Promise<LookupAddress[]> => {
  const host = bareHost(url);
  const family = isIP(host);
  if (family !== 0) return [{ address: host, family }];
  try {
    return await untilAborted((options.resolve ?? resolveAll)(host), signal);
  } catch (error) {
    if (signal.aborted) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOTFOUND' || code === 'ENODATA') throw new RemoteFileError('unresolvable', notPublic(url));
    throw new RemoteFileError('remote_failed', `the host ${url.hostname} could not be resolved`);
  }
};

/**
 * A host name that does not exist, has no address or resolves to an internal one: one text for all,
 * so that answers cannot be used to map the internal network's names (which exist, which do not).
 * A literal address is named as what it is: the client wrote it.
 */
const notPublic = (url: URL): string => `the host ${url.hostname} does not resolve to a public address`;

/**
 * Checks one hop's URL and every address of its host; answers the address to connect to. Also the
 * guard of the webhooks' deliveries (src/webhooks/webhook-sender.ts), at each delivery.
 */
export const checkTarget = async (url: URL, options: Pick<SafeFetchOptions, 'allowHosts' | 'resolve'>, signal: AbortSignal): Promise<Target> => {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw refused('only http and https URLs are accepted');
  if (url.username !== '' || url.password !== '') throw refused('credentials in the URL are not accepted');
  const addresses = await addressesOf(url, options, signal);
  const allowed = options.allowHosts?.includes(`${url.hostname}:${portOf(url)}`) ?? false;
  // Every address, not just the first: a host may list a public address beside an internal one.
  if (!allowed && addresses.some((candidate) => isInternalAddress(candidate.address))) {
    throw refused(isIP(bareHost(url)) === 0 ? notPublic(url) : `the host ${url.hostname} is an internal address`);
  }
  const [chosen] = addresses;
  if (!chosen) throw new RemoteFileError('unresolvable', notPublic(url));
  return { url, address: chosen.address, family: chosen.family === 6 ? 6 : 4 };
};

/** A resolver that answers the checked address alone: the connection goes where the check went. */
export const pinnedLookup = (target: Pick<Target, 'address' | 'family'>): LookupFunction =>
  ((_hostname, lookupOptions, callback) => {
    if (lookupOptions.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  }) as LookupFunction;

/** One GET to the checked address, whatever the resolver would answer now. */
const send = (target: Target, signal: AbortSignal): Promise<IncomingMessage> =>
  new Promise((resolve, reject) => {
    const pinned = pinnedLookup(target);
    const client = target.url.protocol === 'https:' ? https : http;
    const request = client.request(
      {
        protocol: target.url.protocol,
        hostname: bareHost(target.url),
        port: portOf(target.url),
        path: `${target.url.pathname}${target.url.search}`,
        method: 'GET',
        headers: { accept: 'image/*, video/*', 'accept-encoding': 'identity', 'user-agent': 'sav-file-fetch/1' },
        // A fresh connection per hop: a pooled socket could lead to an address this hop did not check.
        agent: false,
        lookup: pinned,
        signal,
      },
      resolve,
    );
    request.on('error', reject);
    request.end();
  });

const fetchWithin = async (rawUrl: string, file: string, options: SafeFetchOptions, signal: AbortSignal): Promise<FetchedFile> => {
  const maxRedirects = options.maxRedirects ?? defaultMaxRedirects;
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw refused('not a valid URL');
  }
  for (let redirects = 0; ; redirects++) {
    let target: Target;
    try {
      target = await checkTarget(url, options, signal);
    } catch (error) {
      if (redirects > 0 && error instanceof RemoteFileError) throw new RemoteFileError(error.code, `redirected to ${url.href}: ${error.message}`);
      throw error;
    }
    const response = await send(target, signal);
    const status = response.statusCode ?? 0;
    if (redirectStatuses.has(status)) {
      response.destroy();
      const location = response.headers.location;
      if (!location) throw new RemoteFileError('remote_failed', `the file host answered HTTP ${status} without a location`);
      if (redirects >= maxRedirects) throw new RemoteFileError('remote_failed', `the file host redirected more than ${maxRedirects} times`);
      try {
        url = new URL(location, url);
      } catch {
        throw new RemoteFileError('remote_failed', 'the file host redirected to an invalid URL');
      }
      continue;
    }
    if (status < 200 || status > 299) {
      response.destroy();
      throw new RemoteFileError('remote_failed', `the file host answered HTTP ${status}`);
    }
    const announced = Number(response.headers['content-length']);
    if (Number.isFinite(announced) && announced > options.maxBytes) {
      response.destroy();
      throw new RemoteFileError('too_large', `the file is larger than ${mebibytes(options.maxBytes)}`);
    }
    const { size, head } = await saveStream(
      response,
      file,
      options.maxBytes,
      () => new RemoteFileError('too_large', `the file is larger than ${mebibytes(options.maxBytes)}`),
    );
    return { finalUrl: url.href, size, head, declaredType: response.headers['content-type'] ?? null };
  }
};

/**
 * Fetches `url` into `file`, which must not exist yet (it is created, and removed again on any
 * failure). Throws a RemoteFileError saying why nothing was kept.
 */
export const fetchToFile = async (url: string, file: string, options: SafeFetchOptions): Promise<FetchedFile> => {
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
  try {
    return await fetchWithin(url, file, options, signal);
  } catch (error) {
    if (error instanceof RemoteFileError) throw error;
    if (options.signal?.aborted) throw new RemoteFileError('remote_failed', 'the fetch was broken off');
    if (timeout.aborted) throw new RemoteFileError('timeout', `the file was not received within ${options.timeoutMs / 1000} s`);
    throw new RemoteFileError('remote_failed', 'the file host could not be reached or broke off the transfer');
  }
};
