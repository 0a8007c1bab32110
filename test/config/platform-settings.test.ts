import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.ts';
import { configProblems } from './config-problems.ts';
import { productionSecrets } from '../support/production-secrets.ts';
import { productionSeller } from '../support/production-seller.ts';

/** PLATFORM_*: the approved platform is off unless its URL and one kind of credentials are given. */
describe('the approved platform settings', () => {
  const load = (env: Record<string, string>) => loadConfig({ DATA_DIR: '/tmp/platform-settings', ...env });
  const problemsOf = (env: Record<string, string>) => configProblems({ DATA_DIR: '/tmp/platform-settings', ...env });

  it('when PLATFORM_URL is unset, no platform is configured: nothing is sent', () => {
    expect(load({}).platform).toBeNull();
  });

  it('when the URL comes with a bearer token or Basic credentials, the platform is configured with them, and from the first day given', () => {
    expect(load({ PLATFORM_URL: 'https://api.pa.example/v1/', PLATFORM_TOKEN: 'pa_live_123', PLATFORM_FROM: '2026-09-01' }).platform).toEqual({
      url: 'https://api.pa.example/v1',
      credentials: { kind: 'bearer', token: 'pa_live_123' },
      from: '2026-09-01',
      everySeconds: 5,
    });
    expect(load({ PLATFORM_URL: 'https://api.pa.example', PLATFORM_BASIC_AUTH: 'seller-42:se:cret' }).platform?.credentials).toEqual({
      kind: 'basic',
      user: 'seller-42',
      password: 'se:cret',
    });
  });

  it.each([
    ['no credentials', { PLATFORM_URL: 'https://api.pa.example' }, 'PLATFORM_URL: give its credentials, PLATFORM_TOKEN or PLATFORM_BASIC_AUTH (one of them)'],
    [
      'both kinds of credentials',
      { PLATFORM_URL: 'https://api.pa.example', PLATFORM_TOKEN: 't', PLATFORM_BASIC_AUTH: 'u:p' },
      'PLATFORM_URL: give its credentials, PLATFORM_TOKEN or PLATFORM_BASIC_AUTH (one of them)',
    ],
    ['credentials without a URL', { PLATFORM_TOKEN: 't' }, 'PLATFORM_TOKEN, PLATFORM_BASIC_AUTH, PLATFORM_FROM: only with PLATFORM_URL'],
    [
      'Basic credentials without a password',
      { PLATFORM_URL: 'https://api.pa.example', PLATFORM_BASIC_AUTH: 'user' },
      'PLATFORM_BASIC_AUTH: must be user:password',
    ],
  ])('when given %s, the service refuses to start, naming the setting', (_case, env, problem) => {
    expect(problemsOf(env)).toEqual([problem]);
  });

  it('when in production, the platform must be reached over HTTPS', () => {
    expect(
      problemsOf({ ...productionSecrets, ...productionSeller, NODE_ENV: 'production', PLATFORM_URL: 'http://api.pa.example', PLATFORM_TOKEN: 't' }),
    ).toEqual(['PLATFORM_URL: must be https when NODE_ENV=production']);
  });
});
