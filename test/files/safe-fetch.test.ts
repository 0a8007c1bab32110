import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RemoteFileError, type RemoteFileErrorCode } from '../../src/files/remote-file-error.ts';
import { fetchToFile, type SafeFetchOptions } from '../../src/files/safe-fetch.ts';
import { jpeg, startFileServer, type FileServer } from './file-server.ts';

const mib = 1024 * 1024;

describe('fetchToFile', () => {
  let allowed: FileServer;
  let other: FileServer;
  let directory: string;
  let target: string;
  let options: SafeFetchOptions;
  beforeAll(async () => {
    other = await startFileServer();
    allowed = await startFileServer({
      redirects: {
        '/to-photo': '/photo.jpg',
        '/to-other-loopback': other.url('/photo.jpg'),
        '/to-metadata': 'http://169.254.169.254/latest/meta-data/',
        '/to-file': 'file:///etc/passwd',
        '/hop-1': '/hop-2',
        '/hop-2': '/hop-3',
        '/hop-3': '/photo.jpg',
        '/hop-0': '/hop-1',
      },
    });
  });
  afterAll(async () => {
    await allowed.close();
    await other.close();
  });
  beforeEach(async () => {
    directory = await mkdtemp(path.join(tmpdir(), 'fetch-'));
    target = path.join(directory, 'incoming');
    options = { maxBytes: mib, timeoutMs: 2000, allowHosts: [allowed.host] };
    allowed.requested.length = 0;
    other.requested.length = 0;
  });
  afterEach(async () => rm(directory, { recursive: true, force: true }));

  const refusal = async (url: string, overrides: Partial<SafeFetchOptions> = {}): Promise<{ code: RemoteFileErrorCode; message: string }> => {
    const error = await fetchToFile(url, target, { ...options, ...overrides }).then(
      () => null,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(RemoteFileError);
    // Nothing is left behind, whatever the failure.
    expect(existsSync(target)).toBe(false);
    const { code, message } = error as RemoteFileError;
    return { code, message };
  };

  it('when the host is allowlisted, it stores the body and tells its size, first bytes and announced type', async () => {
    const fetched = await fetchToFile(allowed.url('/photo.jpg'), target, options);

    expect(await readFile(target)).toEqual(jpeg);
    expect(fetched).toEqual({ finalUrl: allowed.url('/photo.jpg'), size: jpeg.length, head: jpeg, declaredType: 'image/jpeg' });
  });

  it.each([
    ['loopback IPv4 not on the allowlist', (port: number) => `http://127.0.0.1:${port}/photo.jpg`, '127.0.0.1'],
    ['loopback IPv6', (port: number) => `http://[::1]:${port}/photo.jpg`, '[::1]'],
    ['a host name resolving to loopback', (port: number) => `http://localhost:${port}/photo.jpg`, 'localhost'],
    ['loopback written as one number', (port: number) => `http://2130706433:${port}/photo.jpg`, '127.0.0.1'],
    ['loopback as an IPv4-mapped IPv6 address', (port: number) => `http://[::ffff:127.0.0.1]:${port}/photo.jpg`, '[::ffff:7f00:1]'],
    ['a private address', () => 'http://10.0.0.1/photo.jpg', '10.0.0.1'],
    ['the cloud metadata address', () => 'http://169.254.169.254/latest/meta-data/', '169.254.169.254'],
  ])('when the URL leads to %s, it refuses it without connecting', async (_case, url, host) => {
    const refused = await refusal(url(other.port));

    // A name is told apart from no other unreachable name; a literal address is named as what it is.
    const what = host === 'localhost' ? 'does not resolve to a public address' : 'is an internal address';
    expect(refused).toEqual({ code: 'url_refused', message: `the host ${host} ${what}` });
    expect(other.requested).toEqual([]);
  });

  it.each([
    ['file:///etc/passwd', 'only http and https URLs are accepted'],
    ['ftp://files.example.org/photo.jpg', 'only http and https URLs are accepted'],
    ['http://user:secret@files.example.org/photo.jpg', 'credentials in the URL are not accepted'],
    ['not a url', 'not a valid URL'],
  ])('when the URL is %s, it refuses it', async (url, message) => {
    expect(await refusal(url)).toEqual({ code: 'url_refused', message });
  });

  it('when a host resolves to a public and an internal address, it refuses it', async () => {
    const refused = await refusal('http://mixed.example.test/photo.jpg', {
      resolve: async () => [
        { address: '93.184.216.34', family: 4 },
        { address: '192.168.1.10', family: 4 },
      ],
    });

    expect(refused).toEqual({ code: 'url_refused', message: 'the host mixed.example.test does not resolve to a public address' });
  });

  it('when a host name does not exist, has no address or resolves inside, the three answers read alike: the network cannot be mapped by name', async () => {
    const unknown = await refusal('http://nowhere.example.test/photo.jpg', {
      resolve: async () => {
        throw Object.assign(new Error('getaddrinfo ENOTFOUND nowhere.example.test'), { code: 'ENOTFOUND' });
      },
    });
    const empty = await refusal('http://nowhere.example.test/photo.jpg', { resolve: async () => [] });
    const inside = await refusal('http://nowhere.example.test/photo.jpg', { resolve: async () => [{ address: '10.1.2.3', family: 4 }] });

    const answer = 'the host nowhere.example.test does not resolve to a public address';
    expect([unknown.message, empty.message, inside.message]).toEqual([answer, answer, answer]);
  });

  it('when a host name is resolved, the connection goes to the address checked, without asking the resolver again', async () => {
    const resolved: string[] = [];
    const fetched = await fetchToFile(`http://files.example.test:${allowed.port}/photo.jpg`, target, {
      ...options,
      allowHosts: [`files.example.test:${allowed.port}`],
      resolve: async (hostname) => {
        resolved.push(hostname);
        return [{ address: '127.0.0.1', family: 4 }];
      },
    });

    expect(fetched.size).toBe(jpeg.length);
    expect(resolved).toEqual(['files.example.test']);
  });

  it('when the allowlisted host redirects to another loopback port, it refuses the redirect and never calls that port', async () => {
    const refused = await refusal(allowed.url('/to-other-loopback'));

    expect(refused).toEqual({ code: 'url_refused', message: `redirected to ${other.url('/photo.jpg')}: the host 127.0.0.1 is an internal address` });
    expect(other.requested).toEqual([]);
  });

  it('when the host redirects to the metadata address or to a file: URL, it refuses the redirect', async () => {
    expect(await refusal(allowed.url('/to-metadata'))).toEqual({
      code: 'url_refused',
      message: 'redirected to http://169.254.169.254/latest/meta-data/: the host 169.254.169.254 is an internal address',
    });
    expect(await refusal(allowed.url('/to-file'))).toEqual({
      code: 'url_refused',
      message: 'redirected to file:///etc/passwd: only http and https URLs are accepted',
    });
  });

  it('when the host redirects three times, it follows; a fourth redirect is refused', async () => {
    const fetched = await fetchToFile(allowed.url('/hop-1'), target, options);
    expect(fetched.finalUrl).toBe(allowed.url('/photo.jpg'));
    expect(allowed.requested).toEqual(['/hop-1', '/hop-2', '/hop-3', '/photo.jpg']);
    await rm(target);

    expect(await refusal(allowed.url('/hop-0'))).toEqual({ code: 'remote_failed', message: 'the file host redirected more than 3 times' });
  });

  it('when the file announces more than the cap, it stops at once; when it streams more without a length, it stops reading there', async () => {
    expect(await refusal(allowed.url('/big.jpg'))).toEqual({ code: 'too_large', message: 'the file is larger than 1 MiB' });
    expect(await refusal(allowed.url('/big-chunked.jpg'))).toEqual({ code: 'too_large', message: 'the file is larger than 1 MiB' });
  });

  it('when the body stalls or no answer comes, it gives up at the deadline', async () => {
    const started = Date.now();
    expect(await refusal(allowed.url('/stalled.jpg'), { timeoutMs: 300 })).toEqual({ code: 'timeout', message: 'the file was not received within 0.3 s' });
    expect(await refusal(allowed.url('/silent.jpg'), { timeoutMs: 300 })).toEqual({ code: 'timeout', message: 'the file was not received within 0.3 s' });
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('when the host answers an error or refuses the connection, it is a remote failure', async () => {
    expect(await refusal(allowed.url('/missing.jpg'))).toEqual({ code: 'remote_failed', message: 'the file host answered HTTP 404' });
    const closed = await startFileServer();
    await closed.close();
    expect(await refusal(closed.url('/photo.jpg'), { allowHosts: [closed.host] })).toEqual({
      code: 'remote_failed',
      message: 'the file host could not be reached or broke off the transfer',
    });
  });
});
