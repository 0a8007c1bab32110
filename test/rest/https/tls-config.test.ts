import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/config/config.ts';

const problemsOf = (env: Record<string, string>): string => {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems.join('\n');
    throw error;
  }
  throw new Error('the configuration was accepted');
};

describe('the TLS and proxy configuration', () => {
  let dir: string;
  let certFile: string;
  let keyFile: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'tls-config-'));
    certFile = path.join(dir, 'cert.pem');
    keyFile = path.join(dir, 'key.pem');
    await writeFile(certFile, 'certificate');
    await writeFile(keyFile, 'key');
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  it('when nothing is set, it serves plain HTTP, trusts no proxy and keeps a one-year HSTS', () => {
    const config = loadConfig({});
    expect(config.tls).toBeUndefined();
    expect(config.trustProxy).toBe(false);
    expect(config.hstsMaxAge).toBe(31_536_000);
    expect(config.baseUrl).toBe('http://localhost:3000');
  });

  it('when both files are readable, it serves TLS with them', () => {
    const config = loadConfig({ TLS_CERT_FILE: certFile, TLS_KEY_FILE: keyFile, BASE_URL: 'https://api.example.com' });
    expect(config.tls).toEqual({ certFile, keyFile });
    expect(config.baseUrl).toBe('https://api.example.com');
  });

  it('when TLS_CERT_FILE is given without TLS_KEY_FILE, it fails naming both', () => {
    const problems = problemsOf({ TLS_CERT_FILE: certFile });
    expect(problems).toContain('TLS_CERT_FILE');
    expect(problems).toContain('TLS_KEY_FILE');
  });

  it('when TLS_KEY_FILE is given without TLS_CERT_FILE, it fails naming both', () => {
    const problems = problemsOf({ TLS_KEY_FILE: keyFile });
    expect(problems).toContain('TLS_CERT_FILE');
    expect(problems).toContain('TLS_KEY_FILE');
  });

  it('when the key file does not exist, it fails naming TLS_KEY_FILE only', () => {
    const problems = problemsOf({ TLS_CERT_FILE: certFile, TLS_KEY_FILE: path.join(dir, 'missing.pem') });
    expect(problems).toMatch(/^TLS_KEY_FILE: must be a readable file$/);
  });

  it('when the certificate file does not exist, it fails naming TLS_CERT_FILE', () => {
    expect(problemsOf({ TLS_CERT_FILE: path.join(dir, 'missing.pem'), TLS_KEY_FILE: keyFile })).toMatch(/^TLS_CERT_FILE: must be a readable file$/);
  });

  it('when TRUST_PROXY is true or 1, the proxy is trusted; another word fails naming it', () => {
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(problemsOf({ TRUST_PROXY: 'maybe' })).toContain('TRUST_PROXY');
  });

  it('when HSTS_MAX_AGE is not a whole number of seconds, it fails naming it', () => {
    expect(problemsOf({ HSTS_MAX_AGE: '-1' })).toContain('HSTS_MAX_AGE');
  });
});
