import { access, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../src/config/config.ts';
import type { EventStore } from '../../src/events/store/event-store.ts';
import { saleStreamName } from '../../src/events/sales/events.ts';
import { createLabelBacklog } from '../../src/labels/label-backlog.ts';
import { labelCheckpointFile } from '../../src/labels/label-checkpoint.ts';
import { labelFileFor } from '../../src/files/label-path.ts';
import { ensureShippingLabel } from '../../src/labels/label-service.ts';
import { systemContext } from '../../src/events/command-context.ts';
import { createLogger } from '../../src/logger.ts';
import { openRuntime, type Runtime } from '../../src/runtime.ts';
import { trackingNumbersOf } from '../support/tracking-numbers.ts';
import { frozenClock, importLabelOrder, type ImportedLabelOrder } from './label-fixtures.ts';

/** The labels of imported orders, rendered in the background by following the imports in the log. */

type LogLine = { level: number; msg: string; incrementId?: string; serviceOrderId?: string; labels?: number };

/** A real pino logger writing into an array. */
const recordingLogger = () => {
  const lines: LogLine[] = [];
  const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) });
  return { log, lines };
};

/** The store, except that reading this one sale's stream fails. */
const failingFor = (store: EventStore, streamName: string): EventStore =>
  new Proxy(store, {
    get(target, property) {
      if (property === 'readStream') {
        return async (name: string, options?: object) => {
          if (name === streamName) throw new Error('disk unavailable');
          return target.readStream(name, options);
        };
      }
      const value: unknown = Reflect.get(target, property);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });

const onDisk = (runtime: Runtime, supplier: 'supplier-a' | 'supplier-b', serviceOrderId: string): Promise<boolean> =>
  access(labelFileFor(runtime.config.dataDir, supplier, serviceOrderId)).then(
    () => true,
    () => false,
  );

const labelsOf = (order: ImportedLabelOrder) =>
  [
    ['supplier-a', order.supplierALine],
    ['supplier-b', order.supplierBLine],
  ] as const;

describe('the label backlog', () => {
  const folders: string[] = [];
  const runtimes: Runtime[] = [];
  afterEach(async () => {
    for (const runtime of runtimes.splice(0)) await runtime.close();
    for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
  });

  const dataDir = async (): Promise<string> => {
    const folder = await mkdtemp(path.join(tmpdir(), 'label-backlog-'));
    folders.push(folder);
    return folder;
  };
  const open = async (folder: string, env: Record<string, string> = {}): Promise<Runtime> => {
    const runtime = await openRuntime(loadConfig({ DATA_DIR: folder, LOG_LEVEL: 'silent', PDF_WORKERS: '1', ...env }), createLogger('silent'), {
      clock: frozenClock,
    });
    runtimes.push(runtime);
    await runtime.projections.start();
    return runtime;
  };

  it('when orders are imported after it started, each supplier line gets its label on disk, own-stock lines none', async () => {
    const runtime = await open(await dataDir());
    await runtime.labels.start();
    const orders = [await importLabelOrder(runtime), await importLabelOrder(runtime)];
    await runtime.labels.idle();
    for (const order of orders) {
      for (const [supplier, line] of labelsOf(order)) expect(await onDisk(runtime, supplier, line)).toBe(true);
      expect(await onDisk(runtime, 'supplier-a', order.ownStockLine)).toBe(false);
    }
  });

  it('when it starts on a log without a checkpoint, it begins at the head: older orders get their labels when first fetched', async () => {
    const runtime = await open(await dataDir());
    const older = await importLabelOrder(runtime);
    await runtime.labels.start();
    const newer = await importLabelOrder(runtime);
    await runtime.labels.idle();
    expect(await onDisk(runtime, 'supplier-a', older.supplierALine)).toBe(false);
    expect(await onDisk(runtime, 'supplier-a', newer.supplierALine)).toBe(true);
  });

  it("when one order's label fails, it logs which, goes on with the next order, and the failed label is made when first fetched", async () => {
    const runtime = await open(await dataDir());
    const { log, lines } = recordingLogger();
    const failing = await importLabelOrder(runtime);
    const backlog = createLabelBacklog({
      ...runtime,
      log,
      concurrency: 1,
      salesDeps: { ...runtime.salesDeps, eventStore: failingFor(runtime.eventStore, saleStreamName(failing.incrementId)) },
    });
    // From before the failing order: the checkpoint says where to resume.
    await (await import('../../src/labels/label-checkpoint.ts')).labelCheckpointFile(runtime.config.dataDir).write(-1);
    await backlog.start();
    const next = await importLabelOrder(runtime);
    await backlog.idle();
    await backlog.stop();

    expect(lines).toContainEqual(
      expect.objectContaining({
        incrementId: failing.incrementId,
        serviceOrderId: failing.supplierALine,
        msg: 'shipping label of an imported order not rendered; it will be made when first fetched',
      }),
    );
    expect(await onDisk(runtime, 'supplier-a', failing.supplierALine)).toBe(false);
    expect(await onDisk(runtime, 'supplier-a', next.supplierALine)).toBe(true);
    expect(lines).toContainEqual(expect.objectContaining({ incrementId: next.incrementId, labels: 2, msg: 'shipping labels of an imported order rendered' }));
    const trackingNumber = (await trackingNumbersOf(runtime, failing.incrementId))(Number(failing.supplierALine.split('_')[1]));
    expect(await ensureShippingLabel(runtime, { serviceOrderId: failing.supplierALine }, systemContext())).toMatchObject({
      path: `labels/supplier-a/${failing.supplierALine}.pdf`,
      trackingNumber,
    });
    expect(await onDisk(runtime, 'supplier-a', failing.supplierALine)).toBe(true);
  });

  it('when the runtime closes in the middle of a backlog, the labels left are rendered after the next start', async () => {
    const folder = await dataDir();
    // The runtime closes as soon as the backlog has finished its first order: the order in flight is
    // finished, the others wait (decided by the log line, not by timing).
    let closing: Promise<void> | undefined;
    const opened: { first?: Runtime } = {};
    const log = pino(
      { level: 'info' },
      {
        write: (line: string) => {
          const { msg } = JSON.parse(line) as LogLine;
          if (msg === 'shipping labels of an imported order rendered' && opened.first && !closing) closing = opened.first.close();
        },
      },
    );
    const first = await openRuntime(loadConfig({ DATA_DIR: folder, LOG_LEVEL: 'info', PDF_WORKERS: '1' }), log, { clock: frozenClock });
    opened.first = first;
    runtimes.push(first);
    await first.projections.start();
    // The checkpoint: the head before the imports, which are all in the log before the backlog starts.
    await labelCheckpointFile(folder).write(await first.eventStore.headPosition());
    const orders: ImportedLabelOrder[] = [];
    for (let index = 0; index < 8; index++) orders.push(await importLabelOrder(first));
    await first.labels.start();
    await vi.waitUntil(() => closing !== undefined, { timeout: 30_000, interval: 5 });
    await closing;

    const written = await Promise.all(orders.map((order) => Promise.all(labelsOf(order).map(([supplier, line]) => onDisk(first, supplier, line)))));
    expect(written.flat().filter(Boolean).length).toBeLessThan(16);
    expect(written[0]).toEqual([true, true]);
    const checkpoint = JSON.parse(await readFile(path.join(folder, 'labels-checkpoint.json'), 'utf8')) as { position: number };

    const second = await open(folder);
    // The checkpoint stops before the first order with a label missing: just before it when it was taken
    // and interrupted (a taken order has its first label), at the order before it when it was never taken.
    const importedAt = await Promise.all(
      orders.map(
        async ({ incrementId }) => (await second.eventStore.readStream(saleStreamName(incrementId))).find((event) => event.type === 'SaleImported')!.position,
      ),
    );
    const unfinished = written.findIndex((labels) => labels.includes(false));
    expect(checkpoint.position).toBe(written[unfinished]!.includes(true) ? importedAt[unfinished]! - 1 : importedAt[unfinished - 1]!);
    await second.labels.start();
    await second.labels.idle();
    for (const order of orders) {
      for (const [supplier, line] of labelsOf(order)) expect(await onDisk(second, supplier, line)).toBe(true);
    }
  });
});
