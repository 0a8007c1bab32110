import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.ts';
import { configProblems } from './config-problems.ts';

/** WEBHOOK_DELIVERIES_PER_SECOND: the pace of the suppliers' webhooks, 600 a second unless set. */
describe('the webhooks settings', () => {
  const load = (env: Record<string, string>) => loadConfig({ DATA_DIR: '/tmp/webhook-settings', ...env });
  const problemsOf = (env: Record<string, string>) => configProblems({ DATA_DIR: '/tmp/webhook-settings', ...env });

  it('when the pace is not set, deliveries keep to 600 a second; when set, to the rate given', () => {
    expect(load({}).webhookDeliveriesPerSecond).toBe(600);
    expect(load({ WEBHOOK_DELIVERIES_PER_SECOND: '1500' }).webhookDeliveriesPerSecond).toBe(1500);
  });

  it.each(['0', '-5', '2.5', 'fast', '100001'])('when the pace is %s, the service refuses to start and says what it takes', (value) => {
    expect(problemsOf({ WEBHOOK_DELIVERIES_PER_SECOND: value })).toEqual([
      'WEBHOOK_DELIVERIES_PER_SECOND: must be a whole number from 1 to 100000 (messages a second)',
    ]);
  });
});
