import { describe, expect, it } from 'vitest';
import { availableParallelism } from 'node:os';
import { ConfigError, loadConfig } from '../src/config/config.ts';
import { productionSecrets } from './support/production-secrets.ts';
import { productionSeller } from './support/production-seller.ts';

describe('the configuration', () => {
  it('when nothing is set, it runs on the embedded default on port 3000 with Paris time', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.baseUrl).toBe('http://localhost:3000');
    expect(config.planningTimezone).toBe('Europe/Paris');
    expect(config.dataDir).toMatch(/data$/);
    expect(config.eventStoreUrl).toBeUndefined();
    expect(config.mongodbUrl).toBeUndefined();
  });

  it('when values are wrong, it fails naming every variable at fault', () => {
    const error = (() => {
      try {
        loadConfig({ PORT: 'eighty', PLANNING_TIMEZONE: 'Mars/Olympus', BASE_URL: 'ftp://x', SMTP_URL: 'mail.example.com' });
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join('\n');
    for (const variable of ['PORT', 'PLANNING_TIMEZONE', 'BASE_URL', 'SMTP_URL']) expect(problems).toContain(variable);
  });

  it('when PDF_WORKERS is not set, the PDFs get one worker per core but one; the queue and time limit have defaults; bad values are named', () => {
    expect(loadConfig({}).pdf).toEqual({ workers: Math.max(1, availableParallelism() - 1), maxQueue: 64, timeoutMs: 10_000 });
    expect(loadConfig({ PDF_WORKERS: '3', PDF_QUEUE: '0', PDF_TIMEOUT_MS: '500' }).pdf).toEqual({ workers: 3, maxQueue: 0, timeoutMs: 500 });
    expect(() => loadConfig({ PDF_WORKERS: '0' })).toThrow(/PDF_WORKERS/);
    expect(() => loadConfig({ PDF_QUEUE: '-1' })).toThrow(/PDF_QUEUE/);
    expect(() => loadConfig({ PDF_TIMEOUT_MS: '10' })).toThrow(/PDF_TIMEOUT_MS/);
  });

  it('when in production without TOKEN_SECRET, it refuses to start', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/TOKEN_SECRET/);
  });

  it("when in production without LOG_SIGNING_KEY, it refuses to start naming it, unless the notary is off; elsewhere the log's tree is followed and a key generated", () => {
    const production = { NODE_ENV: 'production', ...productionSecrets, ...productionSeller };
    const { LOG_SIGNING_KEY: key, ...withoutKey } = production;
    expect(() => loadConfig(withoutKey)).toThrow(/LOG_SIGNING_KEY: required when NODE_ENV=production/);
    expect(() => loadConfig({ ...production, LOG_SIGNING_KEY: 'a key' })).toThrow(/LOG_SIGNING_KEY: must be an Ed25519 private key/);
    expect(loadConfig(production).logNotary).toMatchObject({ enabled: true, signingKey: key });
    expect(loadConfig({ ...withoutKey, LOG_NOTARY: 'off' }).logNotary).toMatchObject({ enabled: false, signingKey: undefined });
    expect(loadConfig({ DATA_DIR: '/srv/orders' }).logNotary).toEqual({
      enabled: true,
      signingKey: undefined,
      treeFile: '/srv/orders/log-tree.sqlite',
      headEveryEvents: 1000,
      headEverySeconds: 4,
    });
    expect(loadConfig({ LOG_TREE_FILE: '/var/lib/orders/tree.sqlite' }).logNotary.treeFile).toBe('/var/lib/orders/tree.sqlite');
    expect(() => loadConfig({ LOG_NOTARY: 'yes' })).toThrow(/LOG_NOTARY: must be on or off/);
  });

  it('when several instances share MongoDB, each has its own name and leases last 10 s unless told otherwise', () => {
    const [first, second] = [loadConfig({}), loadConfig({})];
    expect(first.projectionLeaseTtlMs).toBe(10_000);
    expect(first.instanceId).not.toBe(second.instanceId);
    expect(loadConfig({ INSTANCE_ID: 'api-1', PROJECTION_LEASE_TTL_MS: '30000' })).toMatchObject({ instanceId: 'api-1', projectionLeaseTtlMs: 30_000 });
    expect(() => loadConfig({ PROJECTION_LEASE_TTL_MS: '50' })).toThrow(/PROJECTION_LEASE_TTL_MS/);
  });

  it('a command waits 2 s for its read models unless READ_YOUR_WRITES_TIMEOUT_MS says otherwise', () => {
    expect(loadConfig({}).readYourWritesTimeoutMs).toBe(2_000);
    expect(loadConfig({ READ_YOUR_WRITES_TIMEOUT_MS: '30000' }).readYourWritesTimeoutMs).toBe(30_000);
    expect(loadConfig({ READ_YOUR_WRITES_TIMEOUT_MS: '0' }).readYourWritesTimeoutMs).toBe(0);
    for (const wrong of ['-1', 'soon', '1000000']) expect(() => loadConfig({ READ_YOUR_WRITES_TIMEOUT_MS: wrong })).toThrow(/READ_YOUR_WRITES_TIMEOUT_MS/);
  });

  it('EVENTSTORE_NAMESPACE is letters, digits and _, and only goes with EVENTSTORE_URL', () => {
    const url = 'esdb://localhost:2113?tls=false';
    expect(loadConfig({ EVENTSTORE_URL: url, EVENTSTORE_NAMESPACE: 'staging_2' }).eventStoreNamespace).toBe('staging_2');
    expect(loadConfig({ EVENTSTORE_URL: url }).eventStoreNamespace).toBeUndefined();
    expect(() => loadConfig({ EVENTSTORE_URL: url, EVENTSTORE_NAMESPACE: 'a.b' })).toThrow(/EVENTSTORE_NAMESPACE/);
    expect(() => loadConfig({ EVENTSTORE_NAMESPACE: 'staging' })).toThrow(/EVENTSTORE_NAMESPACE: only with EVENTSTORE_URL/);
  });

  it('BASE_URL loses its trailing slash and links follow its scheme', () => {
    expect(loadConfig({ BASE_URL: 'https://api.example.com/' }).baseUrl).toBe('https://api.example.com');
  });
});
