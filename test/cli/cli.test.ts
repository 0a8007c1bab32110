import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const contracts = path.resolve(import.meta.dirname, '../../../shared/contracts/examples');

/** The CLI as an operator runs it: a separate process on a DATA_DIR. */
const cli = async (dataDir: string, ...args: string[]) => {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], {
      // Only what an operator's shell would give: the test runner's own variables (BASE_URL...) stay out.
      env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
};

describe('the command-line interface', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'cli-'));
  });
  afterAll(async () => rm(dataDir, { recursive: true, force: true }));

  it('when a token is issued, it is alone on the last line, listed, and its secret is stored nowhere', { timeout: 120_000 }, async () => {
    const issued = await cli(dataDir, 'token', 'issue', '--group', 'supplier-a', '--label', 'Fournisseur A');
    expect(issued.code).toBe(0);
    const token = issued.stdout.trimEnd().split('\n').at(-1)!;
    expect(token).toMatch(/^[a-z0-9]{16}\.[A-Za-z0-9_-]{43}$/);
    const [tokenId, secret] = token.split('.') as [string, string];

    const listed = await cli(dataDir, 'token', 'list');
    expect(listed.stdout).toContain(`${tokenId}\tsupplier-a\tFournisseur A`);

    const replay = await cli(dataDir, 'events', 'replay', '--stream', `accesstoken-${tokenId}`);
    const events = replay.stdout.trim().split('\n').map((line) => JSON.parse(line));
    expect(events.map((event) => event.type)).toEqual(['AccessTokenIssued']);
    expect(replay.stdout).not.toContain(secret);
  });

  it('when the group is unknown, token issue fails naming --group and records nothing', { timeout: 60_000 }, async () => {
    const refused = await cli(dataDir, 'token', 'issue', '--group', 'suppliers');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--group');
  });

  it('when an order is imported twice, the second import changes nothing; the sale replays for auditors', { timeout: 120_000 }, async () => {
    expect((await cli(dataDir, 'catalog', 'import', path.join(contracts, 'catalog.json'))).stdout).toContain('3 created');
    const first = await cli(dataDir, 'orders', 'import', path.join(contracts, 'order.json'));
    expect(first.stdout).toContain('imported 100004512: sale 1, products 1,2,3');
    const second = await cli(dataDir, 'orders', 'import', path.join(contracts, 'order.json'));
    expect(second.stdout).toContain('already imported 100004512: sale 1, products 1,2,3');

    const replay = await cli(dataDir, 'events', 'replay', '--sale', '1');
    const events = replay.stdout.trim().split('\n').map((line) => JSON.parse(line));
    // The sofa (supplier-a) and the table (supplier-b) are created with their tracking numbers; the lamp ships from own stock.
    expect(events.map((event) => event.type)).toEqual(['SaleImported', 'TrackingNumberAllocated', 'TrackingNumberAllocated']);
    expect(events.map((event) => event.stream)).toEqual(Array(3).fill('sale-100004512'));
    expect(events.slice(1).map((event) => [event.data.saleProductId, event.data.supplier])).toEqual([[1, 'supplier-a'], [2, 'supplier-b']]);
  });

  it('when a file breaks the contract, the import fails naming the file and the field, and records nothing', { timeout: 60_000 }, async () => {
    const file = path.join(dataDir, 'bad-order.json');
    await writeFile(file, JSON.stringify({ increment_id: 'A12', created_at: 'yesterday', customer: {}, shipping_address: {}, items: [] }));
    const refused = await cli(dataDir, 'orders', 'import', file);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(file);
    expect(refused.stderr).toContain('increment_id');
  });

  it('when the read models agree with a replay of the log, projections verify exits 0', { timeout: 60_000 }, async () => {
    const verified = await cli(dataDir, 'projections', 'verify');
    expect(verified.stderr).toBe('');
    expect(verified.code).toBe(0);
    expect(verified.stdout).toContain('Read models match a rebuild from the log');
  });
});
