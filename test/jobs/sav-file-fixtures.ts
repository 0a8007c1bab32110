import type { LookupAddress } from 'node:dns';
import type { SavFileFetchOptions } from '../../src/jobs/sav-file-fetches.ts';
import type { FileServer } from '../files/file-server.ts';

/**
 * The SAV file fetch job against the real loopback file server of test/files, reached under a host
 * name: a URL naming 127.0.0.1 is refused by the API on sight, as it must be, so the specs give
 * `files.example.test` and the job resolves it (its resolver and allowlist are set here, in code, as
 * the service's own job never has them). `intranet.example.test` resolves to a private address;
 * any other name does not exist.
 */

export const filesHost = 'files.example.test';
export const intranetHost = 'intranet.example.test';

export const namedUrl = (files: FileServer, path: string): string => `http://${filesHost}:${files.port}${path}`;

const notFound = (hostname: string): Error => Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });

const resolve = async (hostname: string): Promise<LookupAddress[]> => {
  if (hostname === filesHost) return [{ address: '127.0.0.1', family: 4 }];
  if (hostname === intranetHost) return [{ address: '10.0.0.5', family: 4 }];
  throw notFound(hostname);
};

export const fetchOptions = (files: FileServer, limits: { maxBytes?: number; timeoutMs?: number } = {}): SavFileFetchOptions => ({
  fetch: { allowHosts: [`${filesHost}:${files.port}`], resolve, maxBytes: limits.maxBytes ?? 1024 * 1024, timeoutMs: limits.timeoutMs ?? 2000 },
});

export const dataUrl = (type: string, content: Buffer): string => `data:${type};base64,${content.toString('base64')}`;

/** The answer's files, without their IDs and times: what a spec compares. */
export const filesShown = (files: Record<string, unknown>[]) =>
  files.map(({ name, kind, state, content_type, size, attempts, last_error, download_url }) => ({
    name,
    kind,
    state,
    content_type,
    size,
    attempts,
    last_error,
    download_url,
  }));
