import { describe, expect, it } from 'vitest';
import { CheckpointWriter, readCheckpoint } from '../../../src/projections/checkpoints.ts';
import { createMemoryReadStore } from '../../../src/projections/read-store/memory-read-store.ts';

describe('checkpoint writer', () => {
  const policy = { everyEvents: 3, everyMs: 60_000 };

  it('when catching up, the checkpoint is saved once per batch of events', async () => {
    const store = createMemoryReadStore();
    const writer = new CheckpointWriter(store, 'sales', undefined, policy);

    await writer.advance(10, false);
    await writer.advance(11, false);
    expect(await readCheckpoint(store, 'sales')).toBeUndefined();
    await writer.advance(12, false);
    expect(await readCheckpoint(store, 'sales')).toBe(12);
    await writer.advance(13, false);
    expect(await readCheckpoint(store, 'sales')).toBe(12);
  });

  it('when live, each event saves the checkpoint at once', async () => {
    const store = createMemoryReadStore();
    const writer = new CheckpointWriter(store, 'sales', 4, policy);

    await writer.advance(5, true);

    expect(await readCheckpoint(store, 'sales')).toBe(5);
  });

  it('when flushed, the latest applied position is saved', async () => {
    const store = createMemoryReadStore();
    const writer = new CheckpointWriter(store, 'sales', undefined, policy);
    await writer.advance(7, false);

    await writer.flush();

    expect(await readCheckpoint(store, 'sales')).toBe(7);
  });
});
