import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, afterEach, describe, expect, it } from 'vitest';
import type { Clock } from '../../src/events/command-context.ts';
import { acquireLease, holdLease, readLease, releaseLease } from '../../src/projections/projection-lease.ts';
import { openSqliteReadStore } from '../../src/projections/read-store/sqlite-read-store.ts';
import { openMongoReadStore } from '../../src/projections/read-store/mongo-read-store.ts';
import type { ReadStore } from '../../src/projections/read-store/read-store.ts';
import { startFerretDb, type FerretDb } from '../support/ferretdb-server.ts';

const ttlMs = 10_000;
const start = Date.parse('2024-05-01T10:00:00Z');
const at = (offsetMs: number) => new Date(start + offsetMs);

/** A clock the test moves by hand. */
const manualClock = (): Clock & { advance(ms: number): void } => {
  let now = start;
  return { now: () => new Date(now), advance: (ms) => void (now += ms) };
};

function leaseSpec(name: string, open: () => Promise<{ store: ReadStore; cleanup: () => Promise<void> }>): void {
  describe(`projection lease: ${name}`, () => {
    let store: ReadStore;
    let cleanup: () => Promise<void>;
    let projection: string;

    beforeEach(async () => {
      ({ store, cleanup } = await open());
      projection = `sales-${randomUUID().slice(0, 8)}`;
    });
    afterEach(async () => cleanup());

    it('when the lease is free, the first owner takes it and another is refused', async () => {
      expect(await acquireLease(store, projection, 'a', at(0), ttlMs)).toBe(true);
      expect(await acquireLease(store, projection, 'b', at(1), ttlMs)).toBe(false);
      expect(await readLease(store, projection)).toMatchObject({ owner: 'a', expiresAt: at(ttlMs) });
    });

    it('when several owners race for a free lease, exactly one wins', async () => {
      const owners = Array.from({ length: 8 }, (_, i) => `owner-${i}`);
      const results = await Promise.all(owners.map((owner) => acquireLease(store, projection, owner, at(0), ttlMs)));
      expect(results.filter(Boolean)).toHaveLength(1);
      expect((await readLease(store, projection))?.owner).toBe(owners[results.indexOf(true)]);
    });

    it('when several owners race for an expired lease, exactly one takes it over', async () => {
      await acquireLease(store, projection, 'former', at(0), ttlMs);
      const owners = Array.from({ length: 8 }, (_, i) => `owner-${i}`);
      const results = await Promise.all(owners.map((owner) => acquireLease(store, projection, owner, at(ttlMs), ttlMs)));
      expect(results.filter(Boolean)).toHaveLength(1);
      expect((await readLease(store, projection))?.owner).toBe(owners[results.indexOf(true)]);
    });

    it('when the owner renews before the expiry, it keeps the lease for longer', async () => {
      await acquireLease(store, projection, 'a', at(0), ttlMs);
      expect(await acquireLease(store, projection, 'a', at(5_000), ttlMs)).toBe(true);
      expect(await acquireLease(store, projection, 'b', at(ttlMs), ttlMs)).toBe(false);
      expect((await readLease(store, projection))?.expiresAt).toEqual(at(5_000 + ttlMs));
    });

    it('when the lease has expired, another owner takes it over and the former one cannot renew', async () => {
      await acquireLease(store, projection, 'a', at(0), ttlMs);
      expect(await acquireLease(store, projection, 'b', at(ttlMs), ttlMs)).toBe(true);
      expect(await acquireLease(store, projection, 'a', at(ttlMs + 1), ttlMs)).toBe(false);
      expect((await readLease(store, projection))?.owner).toBe('b');
    });

    it('when the owner releases the lease, another takes it at once; a release by another changes nothing', async () => {
      await acquireLease(store, projection, 'a', at(0), ttlMs);
      await releaseLease(store, projection, 'b');
      expect(await acquireLease(store, projection, 'b', at(1), ttlMs)).toBe(false);
      await releaseLease(store, projection, 'a');
      expect(await acquireLease(store, projection, 'b', at(2), ttlMs)).toBe(true);
    });

    it('when two instances hold on, one runs the projection; after its stop, the other takes over', async () => {
      const clock = manualClock();
      const events: string[] = [];
      // Renewals are driven by tick() here; the timer is set far beyond the test.
      const holder = (owner: string) =>
        holdLease({
          store,
          projection,
          owner,
          clock,
          ttlMs,
          renewEveryMs: 3_600_000,
          onAcquired: () => void events.push(`${owner} started`),
          onLost: () => void events.push(`${owner} stopped`),
        });
      const a = holder('a');
      await a.tick();
      const b = holder('b');
      await b.tick();
      expect([a.held, b.held]).toEqual([true, false]);

      await a.stop();
      await b.tick();
      expect([a.held, b.held]).toEqual([false, true]);
      expect(events).toEqual(['a started', 'a stopped', 'b started']);
      await b.stop();
      expect(await acquireLease(store, projection, 'c', clock.now(), ttlMs)).toBe(true);
    });

    it('when the holder stops renewing, another takes over after the expiry and the first learns it lost', async () => {
      const clock = manualClock();
      const events: string[] = [];
      const holder = (owner: string) =>
        holdLease({
          store,
          projection,
          owner,
          clock,
          ttlMs,
          renewEveryMs: 3_600_000,
          onAcquired: () => void events.push(`${owner} started`),
          onLost: () => void events.push(`${owner} stopped`),
        });
      const a = holder('a');
      await a.tick();
      const b = holder('b');
      await b.tick();
      expect([a.held, b.held]).toEqual([true, false]);

      clock.advance(ttlMs - 1);
      await b.tick();
      expect(b.held).toBe(false);
      clock.advance(1);
      await b.tick();
      await a.tick();
      expect([a.held, b.held]).toEqual([false, true]);
      expect(events).toEqual(['a started', 'b started', 'a stopped']);
      await a.stop();
      await b.stop();
    });
  });
}

leaseSpec('embedded', async () => {
  const store = openSqliteReadStore({ file: ':memory:' });
  return { store, cleanup: () => store.close() };
});

describe('on MongoDB', () => {
  let server: FerretDb | undefined;
  let url: string;
  // The first run builds the FerretDB binary (minutes); later runs find it cached.
  beforeAll(async () => {
    url = process.env.TEST_MONGODB_URL ?? (server = await startFerretDb()).url;
  }, 20 * 60_000);
  afterAll(async () => server?.stop());

  leaseSpec(process.env.TEST_MONGODB_URL ? 'mongodb (TEST_MONGODB_URL)' : 'mongodb (ferretdb)', async () => {
    const store = await openMongoReadStore({ url, dbName: `lease_${randomUUID().slice(0, 8)}` });
    return {
      store,
      cleanup: async () => {
        await store.dropAll();
        await store.close();
      },
    };
  });
});
