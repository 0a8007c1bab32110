import { describe, expect, it } from 'vitest';
import { createSupplierSalesCache } from '../../../src/rest/supplier/supplier-cache.ts';

/** The supplier's part of the read model, whose content version the spec moves by hand, and a clock it sets. */
const setup = (options: { maxEntries?: number } = {}) => {
  const version = { current: '1:10' as string | null };
  const clock = { at: new Date('2026-10-05T08:00:00.000Z') };
  const cache = createSupplierSalesCache<string>({ version: async () => version.current, clock: { now: () => clock.at }, ttlMs: 1000, ...options });
  const computed: string[] = [];
  const ask = async (key: string) => {
    const { value, hit } = await cache.through(key, async () => {
      computed.push(key);
      return `${key}@${version.current}`;
    });
    return { value, hit };
  };
  return { version, clock, cache, computed, ask };
};

describe('the supplier sales cache', () => {
  it('when a query is asked again with nothing changed, it is answered from the cache', async () => {
    const { ask, computed } = setup();
    expect(await ask('q')).toEqual({ value: 'q@1:10', hit: false });
    expect(await ask('q')).toEqual({ value: 'q@1:10', hit: true });
    expect(computed).toEqual(['q']);
  });

  it("when the supplier's lines changed after the entry was read (another content version), the query is read again", async () => {
    const { ask, version } = setup();
    await ask('q');
    version.current = '1:12';
    expect(await ask('q')).toEqual({ value: 'q@1:12', hit: false });
    expect((await ask('q')).hit).toBe(true);
  });

  it('when the read model was replaced by a new generation, nothing read before is served', async () => {
    const { ask, version } = setup();
    await ask('q');
    version.current = '2:10';
    expect((await ask('q')).hit).toBe(false);
  });

  it('when the version is unknown, the query is read and nothing is kept', async () => {
    const { ask, version, cache } = setup();
    version.current = null;
    expect((await ask('q')).hit).toBe(false);
    expect((await ask('q')).hit).toBe(false);
    expect(cache.size()).toBe(0);
  });

  it('when the time to live has passed, the query is read again', async () => {
    const { ask, clock } = setup();
    await ask('q');
    clock.at = new Date(clock.at.getTime() + 1000);
    expect((await ask('q')).hit).toBe(true);
    clock.at = new Date(clock.at.getTime() + 1);
    expect((await ask('q')).hit).toBe(false);
  });

  it('when more queries than the bound are kept, the least recently used goes first', async () => {
    const { ask, cache, computed } = setup({ maxEntries: 2 });
    await ask('a');
    await ask('b');
    await ask('a');
    await ask('c');
    expect(cache.size()).toBe(2);
    expect((await ask('a')).hit).toBe(true);
    expect((await ask('b')).hit).toBe(false);
    expect(computed).toEqual(['a', 'b', 'c', 'b']);
  });

  it('when reading fails, nothing is kept and the next call reads again', async () => {
    const { cache } = setup();
    await expect(cache.through('q', async () => Promise.reject(new Error('refused')))).rejects.toThrow('refused');
    expect(cache.size()).toBe(0);
    expect(await cache.through('q', async () => 'ok')).toEqual({ value: 'ok', hit: false });
  });
});
