import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { catalogProducts } from '../../../src/events/catalog/catalog-handlers.ts';
import { catalogImportFile } from '../../../src/events/catalog/catalog-import.ts';
import { productStreamName, type ProductEvent } from '../../../src/events/catalog/events.ts';
import { systemContext } from '../../../src/events/command-context.ts';
import type { WriteDeps } from '../../../src/events/command-handler.ts';
import { readDomainStream } from '../../../src/events/domain-store.ts';
import { openSqliteEventStore, type SqliteEventStore } from '../../../src/events/store/sqlite-event-store.ts';

const now = new Date('2025-03-14T09:30:00.000Z');
const example = catalogImportFile.parse(JSON.parse(readFileSync(new URL('../../../docs/examples/catalog.json', import.meta.url), 'utf8')));
let directory: string;
let store: SqliteEventStore;
let deps: WriteDeps;

beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'catalog-'));
  store = openSqliteEventStore({ file: join(directory, 'events.db') });
  deps = { eventStore: store, clock: { now: () => now } };
});

afterEach(async () => {
  await store.close();
  rmSync(directory, { recursive: true, force: true });
});

describe('catalog import on the embedded store', () => {
  it('when the example file is imported into an empty catalog, every product is created', async () => {
    expect(await catalogProducts(deps, example, systemContext())).toEqual({ created: 3, updated: 0, unchanged: 0 });
    const { events } = await readDomainStream<ProductEvent>(store, productStreamName('LAMP-ARC-BLK'));
    expect(events.map((event) => event.type)).toEqual(['ProductCatalogued']);
  });

  it('when the example file is imported twice, the second import records nothing', async () => {
    await catalogProducts(deps, example, systemContext());
    const head = await store.headPosition();
    expect(await catalogProducts(deps, example, systemContext())).toEqual({ created: 0, updated: 0, unchanged: 3 });
    expect(await store.headPosition()).toBe(head);
  });

  it('when one product changed in the file, only that product is updated with its changed fields', async () => {
    await catalogProducts(deps, example, systemContext());
    const changed = example.map((item) => (item.sku === 'TAB-NORD-180' ? { ...item, stock_qty: 3 } : item));
    expect(await catalogProducts(deps, changed, systemContext())).toEqual({ created: 0, updated: 1, unchanged: 2 });
    const { events } = await readDomainStream<ProductEvent>(store, productStreamName('TAB-NORD-180'));
    expect(events.at(-1)?.data).toEqual({ sku: 'TAB-NORD-180', changes: { stock_qty: 3 }, updatedAt: now.toISOString() });
  });
});
