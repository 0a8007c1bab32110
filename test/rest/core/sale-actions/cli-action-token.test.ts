import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type ApiHarness } from '../../../support/api-harness.ts';
import { importOrder, payloadOf, type ImportedOrder } from './sale-actions-api.ts';
import { cliArguments } from '../../../support/service-command.ts';

const run = promisify(execFile);

/** The CLI as an operator runs it beside the server: a separate process on the same DATA_DIR. */
const cli = async (api: ApiHarness, ...args: string[]) => {
  try {
    const { stdout, stderr } = await run(process.execPath, cliArguments(...args), {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: api.runtime.config.dataDir, LOG_LEVEL: 'warn', ...api.storeEnv },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
};
const lastLine = (stdout: string): string => stdout.trimEnd().split('\n').at(-1)!;

const newAddress = { firstname: 'Claire', lastname: 'Martin', street: ['4 place Bellecour'], postcode: '69002', city: 'Lyon', country_id: 'FR' };

// The server runs on the system clock here: the CLI signs with the real time, and the server must not see its tokens as expired.
describe('npm run cli -- action-token', () => {
  let dataDir: string;
  let api: ApiHarness;
  let sale: ImportedOrder;
  let bearer: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'action-token-cli-'));
    api = await startApi({ env: { DATA_DIR: dataDir } });
    sale = await importOrder(api);
    bearer = `Bearer ${await api.tokenFor('core', 'storefront')}`;
  }, 60_000);
  afterAll(async () => {
    await api.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('when a cancel token for some products is minted, the API cancels and refunds exactly those', { timeout: 120_000 }, async () => {
    const minted = await cli(api, 'action-token', 'cancel', '--sale', String(sale.saleId), '--products', String(sale.lamp));
    expect(minted).toMatchObject({ code: 0, stderr: '' });
    const token = lastLine(minted.stdout);
    expect(payloadOf(api, token)).toMatchObject({ action: 'cancel', saleId: sale.saleId, productIds: [sale.lamp] });

    const response = await api.request.post(`/api/sale-cancel/${token}`).set('Authorization', bearer);

    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ status: 'cancelled', cancelled_sale_product_ids: [sale.lamp], refund: { amount: 259.8, currency: 'EUR' } });
  });

  it('when an address token is minted with its data and a lifetime, the API delivers the sale there', { timeout: 120_000 }, async () => {
    const minted = await cli(api, 'action-token', 'address', '--sale', String(sale.saleId), '--data', JSON.stringify(newAddress), '--ttl', '600');
    expect(minted.code).toBe(0);
    const token = lastLine(minted.stdout);
    const payload = payloadOf(api, token);
    expect((payload.exp as number) - (payload.iat as number)).toBe(600);

    const response = await api.request.post(`/api/sale-address/${token}`).set('Authorization', bearer);

    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ status: 'updated', shipping_address: newAddress });
  });

  it("when the data breaks its kind's schema, it fails naming the flag and the field", { timeout: 120_000 }, async () => {
    const refused = await cli(api, 'action-token', 'address', '--sale', String(sale.saleId), '--data', JSON.stringify({ ...newAddress, city: '' }));

    expect(refused).toMatchObject({ code: 2, stdout: '' });
    expect(refused.stderr).toMatch(/^--data: city: /);
  });

  it('when the sale is not in the log, it fails naming --sale', { timeout: 120_000 }, async () => {
    const refused = await cli(api, 'action-token', 'rdv', '--sale', '424242', '--data', '{"date":"2026-12-14","time":"10:00"}');

    expect(refused).toEqual({ code: 2, stdout: '', stderr: '--sale: no sale 424242 in the log\n' });
  });

  it("when a product is not the sale's, it fails naming --products", { timeout: 120_000 }, async () => {
    const refused = await cli(api, 'action-token', 'cancel', '--sale', String(sale.saleId), '--products', String(sale.lamp + 1000));

    expect(refused).toEqual({ code: 2, stdout: '', stderr: `--products: not products of sale ${sale.saleId}: ${sale.lamp + 1000}\n` });
  });
});
