import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqliteReadStore } from '../../src/projections/read-store/sqlite-read-store.ts';
import { runCli } from '../support/cli-process.ts';
import { liveCollectionName } from '../support/live-read-models.ts';
import { cliArguments } from '../support/service-command.ts';

const examples = path.resolve(import.meta.dirname, '../../docs/examples');

const cli = async (dataDir: string, ...args: string[]) => runCli(dataDir, args);

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
    const [header, ...rows] = listed.stdout.trimEnd().split('\n');
    expect(header).toBe('ID\tGROUP\tLABEL\tISSUED AT\tSTATUS');
    expect(rows).toEqual([expect.stringMatching(new RegExp(`^${tokenId}\tsupplier-a\tFournisseur A\t\\d{4}-\\d\\d-\\d\\dT[^\t]+\tactive$`))]);

    const replay = await cli(dataDir, 'events', 'replay', '--stream', `accesstoken-${tokenId}`);
    const events = replay.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(events.map((event) => event.type)).toEqual(['AccessTokenIssued']);
    expect(replay.stdout).not.toContain(secret);
  });

  it('when the group is unknown, token issue fails naming --group and records nothing', { timeout: 60_000 }, async () => {
    const refused = await cli(dataDir, 'token', 'issue', '--group', 'suppliers');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--group');
  });

  it('when an order is imported twice, the second import changes nothing; the sale replays for auditors', { timeout: 120_000 }, async () => {
    const catalog = path.join(examples, 'catalog.json');
    expect((await cli(dataDir, 'catalog', 'import', catalog)).stdout).toBe(`Catalog ${catalog}: 3 created, 0 updated, 0 unchanged\n`);
    const first = await cli(dataDir, 'orders', 'import', path.join(examples, 'order.json'));
    expect(first.stdout).toBe('imported 100004512: sale 1, products 1,2,3\n1 order(s): 1 imported, 0 already there\n');
    const second = await cli(dataDir, 'orders', 'import', path.join(examples, 'order.json'));
    expect(second.stdout).toBe('already imported 100004512: sale 1, products 1,2,3\n1 order(s): 0 imported, 1 already there\n');

    const replay = await cli(dataDir, 'events', 'replay', '--sale', '1');
    const events = replay.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    // The sofa (supplier-a) and the table (supplier-b) are created with their tracking numbers; the lamp ships from own stock.
    expect(events.map((event) => event.type)).toEqual(['SaleImported', 'TrackingNumberAllocated', 'TrackingNumberAllocated']);
    expect(events.map((event) => event.stream)).toEqual(Array(3).fill('sale-100004512'));
    expect(events.slice(1).map((event) => [event.data.saleProductId, event.data.supplier])).toEqual([
      [1, 'supplier-a'],
      [2, 'supplier-b'],
    ]);
  });

  it(
    'when a file holds orders with marketplace fields beyond the contract, each is imported with its own fields kept for audit',
    { timeout: 60_000 },
    async () => {
      const order = JSON.parse(await readFile(path.join(examples, 'order.json'), 'utf8')) as Record<string, unknown>;
      const file = path.join(dataDir, 'marketplace-orders.json');
      const orders = [
        { ...order, increment_id: '100009001', channel_ref: 'A-1' },
        { ...order, increment_id: '100009002', channel_ref: 'B-2' },
      ];
      await writeFile(file, JSON.stringify(orders));

      const imported = await cli(dataDir, 'orders', 'import', file);

      expect(imported.stdout).toContain('2 order(s): 2 imported');
      const replayed = await Promise.all(
        ['100009001', '100009002'].map(async (incrementId) => {
          const replay = await cli(dataDir, 'events', 'replay', '--stream', `sale-${incrementId}`);
          return JSON.parse(replay.stdout.trim().split('\n')[0] ?? '{}').data.unknownFields;
        }),
      );
      expect(replayed).toEqual([{ channel_ref: 'A-1' }, { channel_ref: 'B-2' }]);
    },
  );

  it('when a file holds many orders, they are imported together and reported in file order, a repeated increment_id once', { timeout: 60_000 }, async () => {
    const order = JSON.parse(await readFile(path.join(examples, 'order.json'), 'utf8')) as Record<string, unknown>;
    const file = path.join(dataDir, 'batch-orders.json');
    const incrementIds = Array.from({ length: 40 }, (_, index) => String(100_020_000 + index));
    await writeFile(file, JSON.stringify([...incrementIds, incrementIds[7]].map((increment_id) => ({ ...order, increment_id }))));

    const imported = await cli(dataDir, 'orders', 'import', file);

    expect(imported.code).toBe(0);
    const lines = imported.stdout.trimEnd().split('\n');
    expect(lines.slice(0, 41).map((line) => line.split(':')[0])).toEqual([
      ...incrementIds.map((id) => `imported ${id}`),
      `already imported ${incrementIds[7]}`,
    ]);
    expect(lines[7]!.split(': ')[1]).toBe(lines[40]!.split(': ')[1]);
    expect(lines.at(-1)).toBe('41 order(s): 40 imported, 1 already there');
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

  it('when a verify run was killed, the next one removes its scratch copy from DATA_DIR, and leaves none of its own', { timeout: 60_000 }, async () => {
    const ended = spawn(process.execPath, ['-e', '']);
    await once(ended, 'exit');
    const killedRun = `verify-scratch-${ended.pid}-0b5e7c1e-8a1f-4c55-9d4e-2f6a1c3b7d90.sqlite`;
    await writeFile(path.join(dataDir, killedRun), 'scratch read models');
    await writeFile(path.join(dataDir, `${killedRun}-journal`), 'its journal');

    const verified = await cli(dataDir, 'projections', 'verify');
    expect(verified.code).toBe(0);
    expect((await readdir(dataDir)).filter((name) => name.startsWith('verify-scratch-'))).toEqual([]);
  });

  it(
    'when a sale document was changed behind the projections, verify --projection names it for sales only, and refuses an unknown name',
    { timeout: 60_000 },
    async () => {
      // The live generation of the sales read model, changed as a hand on the file would change it.
      const store = openSqliteReadStore({ file: path.join(dataDir, 'read-models.sqlite') });
      const sales = (await liveCollectionName(store, 'sales'))!;
      const [sale] = await store.collection(sales).find({}, { limit: 1 }).toArray();
      await store.collection(sales).updateOne({ _id: sale!._id }, { $set: { tampered: true } });
      await store.close();

      const salesOnly = await cli(dataDir, 'projections', 'verify', '--projection', 'sales');
      expect(salesOnly.code).toBe(2);
      expect(salesOnly.stdout).toContain('"collection":"sales"');
      expect(salesOnly.stderr).toContain('1 difference(s)');
      const others = await cli(dataDir, 'projections', 'verify', '--projection', 'dashboard', '--projection', 'customers');
      expect(others.code).toBe(0);
      const unknown = await cli(dataDir, 'projections', 'verify', '--projection', 'sale');
      expect(unknown.code).toBe(2);
      expect(unknown.stderr).toContain('--projection: unknown sale; one of sales,');

      const mended = openSqliteReadStore({ file: path.join(dataDir, 'read-models.sqlite') });
      await mended.collection(sales).updateOne({ _id: sale!._id }, { $unset: { tampered: '' } });
      await mended.close();
    },
  );
});

describe('the command-line interface in a pipe', () => {
  let dataDir: string;
  let events: number;
  let seeded: { code: number; stdout: string };
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'cli-pipe-'));
    seeded = await cli(dataDir, 'demo', 'seed', '--orders', '300');
    expect(seeded.code).toBe(0);
    // The log as the store holds it, counted by its last position (positions are contiguous here).
    const { stdout } = await cli(dataDir, 'events', 'replay', '--from', '0');
    events = Number(JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}').position);
  }, 120_000);
  afterAll(async () => rm(dataDir, { recursive: true, force: true }));

  it(
    'when the demo is seeded, it ends with what to try: open lines of each supplier, an order with its customer, a SKU, the token commands',
    { timeout: 60_000 },
    async () => {
      const said = (label: string) => new RegExp(`^  ${label}: (.+)$`, 'm').exec(seeded.stdout)?.[1];
      const replay = async (stream: string) =>
        (await cli(dataDir, 'events', 'replay', '--stream', stream)).stdout
          .trim()
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line));

      const [, incrementId, email] = /^(\d+) \(sale \d+\), customer (\S+)$/.exec(said('an order') ?? '') ?? [];
      const sale = await replay(`sale-${incrementId}`);
      expect(sale[0]).toMatchObject({ type: 'SaleImported', data: { incrementId, customer: { email } } });
      expect((await replay(`product-${said('a SKU')}`))[0]?.type).toBe('ProductCatalogued');
      for (const supplier of ['supplier-a', 'supplier-b']) {
        const open = said(`open lines of ${supplier}`)!.split(', ');
        expect(open.length, supplier).toBeGreaterThan(0);
        for (const serviceOrderId of open) {
          const [lineOrder, saleProductId] = serviceOrderId.split('_');
          const lineEvents = (await replay(`sale-${lineOrder}`)).filter((event) => event.data.saleProductId === Number(saleProductId));
          // A line of that supplier, neither shipped nor cancelled.
          expect(lineEvents.find((event) => event.type === 'TrackingNumberAllocated')?.data.supplier, serviceOrderId).toBe(supplier);
          expect(
            lineEvents.map((event) => event.type),
            serviceOrderId,
          ).not.toContain('SaleProductShipped');
        }
      }
      for (const group of ['supplier-a', 'supplier-b', 'core', 'chatbot', 'analyst']) {
        expect(seeded.stdout).toContain(`npm run --silent cli -- token issue --group ${group}\n`);
      }
    },
  );

  it('when the replay is piped to a reader, the reader gets every event of the log before the command ends', { timeout: 60_000 }, async () => {
    const child = spawn(process.execPath, cliArguments('events', 'replay'), {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // A slow reader: the pipe fills, and the command must wait for it rather than exit.
    child.stdout.pause();
    setTimeout(() => child.stdout.resume(), 1000);
    let text = '';
    child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    const [code] = await once(child, 'close');

    expect(code).toBe(0);
    expect(events).toBeGreaterThan(1000);
    expect(text.trim().split('\n')).toHaveLength(events);
  });

  it('when the reader stops after the first line (| head -1), the command stops quietly with 0', { timeout: 60_000 }, async () => {
    const child = spawn(process.execPath, cliArguments('events', 'replay'), {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.stdout.once('data', () => child.stdout.destroy());
    const [code] = await once(child, 'close');

    expect(stderr).toBe('');
    expect(code).toBe(0);
  });
});
