import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SavEvent } from '../../../src/events/after-sales/events.ts';
import { decodeEvent, type DomainEvent } from '../../../src/events/registry.ts';
import { systemContext } from '../../../src/events/command-context.ts';
import { appendDomainEvents } from '../../../src/events/domain-store.ts';
import { encryptingEventStore } from '../../../src/events/personal-data/encrypting-event-store.ts';
import type { KeyStore } from '../../../src/events/personal-data/key-store.ts';
import { openSqliteKeyStore } from '../../../src/events/personal-data/sqlite-key-store.ts';
import type { EventStore } from '../../../src/events/store/event-store.ts';
import { openSqliteEventStore, type SqliteEventStore } from '../../../src/events/store/sqlite-event-store.ts';
import { at, saleImported } from '../sales/sale-fixtures.ts';

/**
 * The encrypting layer on the embedded stores: what the log holds (the raw store's view), what readers
 * see through the layer, and what they see once the customer's key is deleted, here or by another
 * process sharing the files.
 */

const email = 'Aurore.Scellee@example.org';
const customer = { email, firstname: 'Aurore', lastname: 'Scellée', phone: '+33644556677' };
const shippingAddress = { firstname: 'Aurore', lastname: 'Scellée', street: ['5 rue du Secret'], postcode: '38100', city: 'Grenoble-Sud', country_id: 'FR' };
const values = [email, 'Aurore', 'Scellée', '+33644556677', '5 rue du Secret', '38100', 'Grenoble-Sud'];

describe('the encrypting event store', () => {
  let folder: string;
  let raw: SqliteEventStore;
  let keys: KeyStore;
  let store: EventStore;
  const opened: { close: () => Promise<void> }[] = [];

  /** Another process on the same files: its own connections and caches. */
  const anotherProcess = () => {
    const otherRaw = openSqliteEventStore({ file: path.join(folder, 'events.sqlite') });
    const otherKeys = openSqliteKeyStore({ file: path.join(folder, 'keys.sqlite') });
    opened.push(otherRaw, otherKeys);
    return { keys: otherKeys, store: encryptingEventStore(otherRaw, otherKeys, { stampCheckMs: 0 }) };
  };

  beforeEach(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'sealed-'));
    raw = openSqliteEventStore({ file: path.join(folder, 'events.sqlite') });
    keys = openSqliteKeyStore({ file: path.join(folder, 'keys.sqlite') });
    store = encryptingEventStore(raw, keys, { stampCheckMs: 0 });
  });
  afterEach(async () => {
    for (const closing of opened.splice(0)) await closing.close();
    await raw.close();
    await keys.close();
    await rm(folder, { recursive: true, force: true });
  });

  const append = (on: EventStore, stream: string, events: DomainEvent[]) => appendDomainEvents(on, stream, events, systemContext(), new Date(at), 'any');
  const importSale = async (on: EventStore = store, data = { customer, shippingAddress }) => {
    const sale = saleImported(data);
    await append(on, `sale-${sale.data.incrementId}`, [sale]);
    return sale;
  };
  const sav = (sale: ReturnType<typeof saleImported>, savId: number): SavEvent => ({
    type: 'SavCreated',
    data: {
      savId,
      saleId: sale.data.saleId,
      incrementId: sale.data.incrementId,
      saleProductIds: [sale.data.products[0]!.saleProductId],
      products: [{ saleProductId: sale.data.products[0]!.saleProductId, sku: 'CAN-OSLO-3P-GRY', name: 'Canapé' }],
      complaint: 'Le tissu Scellée est déchiré',
      complaintName: 'Produit endommagé',
      savType: 'repair',
      channel: 'core',
      customerEmail: null,
      createdAt: at,
    },
  });

  it('when a sale is imported, the log holds [erased] and a sealed value in their place; read through the layer, they are as written', async () => {
    const sale = await importSale();
    const stream = `sale-${sale.data.incrementId}`;

    const [stored] = await raw.readStream(stream);
    const [read] = await store.readStream(stream);

    expect(stored!.data).toMatchObject({
      customer: { email: '[erased]', firstname: '[erased]', lastname: '[erased]', phone: '[erased]' },
      shippingAddress: { street: ['[erased]'], city: '[erased]', postcode: '[erased]', country_id: 'FR' },
      grandTotal: 649,
      products: sale.data.products,
    });
    expect(stored!.metadata.personalData).toEqual({ keyId: expect.stringMatching(/^[a-f0-9]{32}$/), iv: expect.any(String), sealed: expect.any(String) });
    expect(read!.data).toEqual(sale.data);
    expect(read!.metadata.personalData).toEqual({ keyId: stored!.metadata.personalData!.keyId });
    const log = Buffer.concat([
      await readFile(path.join(folder, 'events.sqlite')),
      await readFile(path.join(folder, 'events.sqlite-wal')).catch(() => Buffer.alloc(0)),
    ]);
    expect(values.filter((value) => log.includes(Buffer.from(value)))).toEqual([]);
  });

  it("when many customers' first orders are appended at once, each has a key of its own, on disk once the appends are acknowledged", async () => {
    const emails = Array.from({ length: 40 }, (_, index) => `client.${index}@example.org`);
    // Two first orders of one customer at once: one key for both.
    const sales = await Promise.all(
      [...emails, emails[0]!].map((address) => importSale(store, { customer: { ...customer, email: address }, shippingAddress })),
    );

    const other = anotherProcess();
    const keyIds = new Set<string>();
    for (const sale of sales) {
      const [read] = await other.store.readStream(`sale-${sale.data.incrementId}`);
      expect(read!.data).toEqual(sale.data);
      keyIds.add(read!.metadata.personalData!.keyId);
    }
    expect(keyIds.size).toBe(40);
    // The streams were noted against each key: erasing the customer of the two orders names both.
    const erased = await other.keys.erase(other.keys.subjectOf(emails[0]!), at);
    expect(erased).toEqual({
      status: 'erased',
      keys: [{ keyId: expect.any(String), streams: [sales[0], sales[40]].map((sale) => `sale-${sale!.data.incrementId}`).sort() }],
    });
  });

  it("when an address update and a SAV follow, they are sealed with the customer's key, found from the sale's stream", async () => {
    const sale = await importSale();
    const stream = `sale-${sale.data.incrementId}`;
    await append(store, stream, [
      { type: 'SaleAddressUpdated', data: { saleId: sale.data.saleId, shippingAddress: { ...shippingAddress, city: 'Échirolles-Est' }, updatedAt: at } },
    ]);
    await append(store, 'sav-1', [sav(sale, 1)]);

    const keyIds = [...(await raw.readStream(stream)), ...(await raw.readStream('sav-1'))].map((event) => event.metadata.personalData?.keyId);

    expect(new Set(keyIds).size).toBe(1);
    expect((await raw.readStream('sav-1'))[0]!.data).toMatchObject({ complaint: '[erased]', customerEmail: null });
    expect((await store.readStream('sav-1'))[0]!.data).toMatchObject({ complaint: 'Le tissu Scellée est déchiré' });
    expect((await store.readStream(stream))[1]!.data).toMatchObject({ shippingAddress: { city: 'Échirolles-Est' } });
  });

  it('when the key is deleted, every read gives [erased], which the registry accepts; amounts and products stay', async () => {
    const sale = await importSale();
    await append(store, 'sav-2', [sav(sale, 2)]);
    const outcome = await keys.erase(keys.subjectOf(email.toUpperCase()), at);

    const events = [...(await store.readAll()), ...(await store.readStream('sav-2'))];

    expect(outcome).toMatchObject({ status: 'erased', keys: [{ streams: [`sale-${sale.data.incrementId}`, 'sav-2'] }] });
    expect(JSON.stringify(events)).not.toContain('Aurore');
    const imported = decodeEvent(events[0]!);
    expect(imported.data).toMatchObject({ customer: { email: '[erased]' }, grandTotal: 649, products: sale.data.products });
    expect(decodeEvent(events.at(-1)!).data).toMatchObject({ complaint: '[erased]' });
    expect(await keys.erase(keys.subjectOf(email), at)).toEqual({ status: 'erased', keys: outcome.status === 'erased' ? outcome.keys : [] });
    await keys.confirmErasure(keys.subjectOf(email));
    expect(await keys.erase(keys.subjectOf(email), at)).toEqual({ status: 'already_erased', erasedAt: at });
  });

  it('when another process deletes the key, this one reads [erased] at its very next read', async () => {
    const sale = await importSale();
    const stream = `sale-${sale.data.incrementId}`;
    expect((await store.readStream(stream))[0]!.data).toMatchObject({ customer: { email } });
    const other = anotherProcess();

    await other.keys.erase(other.keys.subjectOf(email), at);

    expect((await store.readStream(stream))[0]!.data).toMatchObject({ customer: { email: '[erased]', firstname: '[erased]' } });
  });

  it("when personal data is appended to an erased customer's stream, it is recorded as erased: nothing of it is kept", async () => {
    const sale = await importSale();
    const stream = `sale-${sale.data.incrementId}`;
    await keys.erase(keys.subjectOf(email), at);

    await append(store, stream, [
      { type: 'SaleAddressUpdated', data: { saleId: sale.data.saleId, shippingAddress: { ...shippingAddress, city: 'Voiron-Nord' }, updatedAt: at } },
    ]);

    const [, stored] = await raw.readStream(stream);
    expect(stored!.metadata.personalData).toEqual({ keyId: expect.any(String) });
    expect(stored!.data).toMatchObject({ shippingAddress: { city: '[erased]', country_id: 'FR' } });
    expect(JSON.stringify(await raw.readAll())).not.toContain('Voiron-Nord');
  });

  it('when the same e-mail orders again after its erasure, a new key seals the new sale, which reads in clear; the old one stays erased', async () => {
    const first = await importSale();
    await keys.erase(keys.subjectOf(email), at);

    const second = await importSale();

    const [old, renewed] = await store.readAll({ filter: { eventTypes: ['SaleImported'] } });
    expect(old!.data).toMatchObject({ saleId: first.data.saleId, customer: { email: '[erased]' } });
    expect(renewed!.data).toMatchObject({ saleId: second.data.saleId, customer: { email } });
    expect(renewed!.metadata.personalData!.keyId).not.toBe(old!.metadata.personalData!.keyId);
  });

  it('when a sealed value is copied onto another event, it does not open there: that event reads [erased]', async () => {
    const first = await importSale();
    const second = await importSale(store, { customer: { ...customer, firstname: 'Autre' }, shippingAddress });
    const [sealed] = await raw.readStream(`sale-${first.data.incrementId}`);
    const [target] = await raw.readStream(`sale-${second.data.incrementId}`);
    const forged = { ...target!, metadata: { ...target!.metadata, personalData: sealed!.metadata.personalData } };
    const layer = encryptingEventStore({ ...raw, readStream: async () => [forged] }, keys, { stampCheckMs: 0 });

    expect((await layer.readStream('any-1'))[0]!.data).toMatchObject({ customer: { firstname: '[erased]' } });
  });
});
