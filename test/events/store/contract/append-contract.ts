import { describe, expect, it } from 'vitest';
import { WrongExpectedVersionError } from '../../../../src/events/store/event-store.ts';
import { expectWrongVersion, newEvent, newEvents, uniqueStream, useStore, type OpenEventStore } from './fixtures.ts';

export function appendContract(open: OpenEventStore): void {
  describe('appendToStream', () => {
    const store = useStore(open);

    it('when a new stream receives events, revisions start at 0 and increase by one', async () => {
      const stream = uniqueStream();
      const first = await store().appendToStream(stream, newEvents(2));
      const second = await store().appendToStream(stream, newEvents(3));
      expect(first.nextExpectedRevision).toBe(1);
      expect(second.nextExpectedRevision).toBe(4);
      expect((await store().readStream(stream)).map((e) => e.revision)).toEqual([0, 1, 2, 3, 4]);
    });

    it('when an append succeeds, it returns the position of its last event', async () => {
      const stream = uniqueStream();
      const result = await store().appendToStream(stream, newEvents(3));
      const recorded = await store().readStream(stream);
      expect(result.position).toBe(recorded.at(-1)?.position);
    });

    it('when expected revision is any, the append succeeds on a new and on an existing stream', async () => {
      const stream = uniqueStream();
      await store().appendToStream(stream, [newEvent()], { expectedRevision: 'any' });
      const result = await store().appendToStream(stream, [newEvent()], { expectedRevision: 'any' });
      expect(result.nextExpectedRevision).toBe(1);
    });

    it('when expected revision is no_stream and the stream is new, the append succeeds', async () => {
      const result = await store().appendToStream(uniqueStream(), [newEvent()], { expectedRevision: 'no_stream' });
      expect(result.nextExpectedRevision).toBe(0);
    });

    it('when expected revision is no_stream and the stream exists, it fails with the actual revision', async () => {
      const stream = uniqueStream();
      await store().appendToStream(stream, newEvents(2));
      await expectWrongVersion(store().appendToStream(stream, [newEvent()], { expectedRevision: 'no_stream' }), 1);
    });

    it('when expected revision is stream_exists and the stream is new, it fails with actual no_stream', async () => {
      await expectWrongVersion(store().appendToStream(uniqueStream(), [newEvent()], { expectedRevision: 'stream_exists' }), 'no_stream');
    });

    it('when expected revision is stream_exists and the stream exists, the append succeeds', async () => {
      const stream = uniqueStream();
      await store().appendToStream(stream, [newEvent()]);
      const result = await store().appendToStream(stream, [newEvent()], { expectedRevision: 'stream_exists' });
      expect(result.nextExpectedRevision).toBe(1);
    });

    it('when the expected revision is the last revision, the append succeeds', async () => {
      const stream = uniqueStream();
      const { nextExpectedRevision } = await store().appendToStream(stream, newEvents(2));
      const result = await store().appendToStream(stream, newEvents(2), { expectedRevision: nextExpectedRevision });
      expect(result.nextExpectedRevision).toBe(3);
    });

    it('when the expected revision is not the last revision, it fails with a WrongExpectedVersionError carrying the actual one', async () => {
      const stream = uniqueStream();
      await store().appendToStream(stream, newEvents(3));
      const error = await store()
        .appendToStream(stream, [newEvent()], { expectedRevision: 0 })
        .catch((rejection: unknown) => rejection);
      expect(error).toBeInstanceOf(WrongExpectedVersionError);
      expect(error).toMatchObject({ streamName: stream, expected: 0, actual: 2 });
      await expectWrongVersion(store().appendToStream(stream, [newEvent()], { expectedRevision: 7 }), 2);
    });

    it('when an exact expected revision is given for a missing stream, it fails with actual no_stream', async () => {
      await expectWrongVersion(store().appendToStream(uniqueStream(), [newEvent()], { expectedRevision: 0 }), 'no_stream');
    });

    it('when an append fails its revision check, none of its events are written', async () => {
      const stream = uniqueStream();
      await store().appendToStream(stream, newEvents(2));
      await expectWrongVersion(store().appendToStream(stream, newEvents(5), { expectedRevision: 0 }), 1);
      expect(await store().readStream(stream)).toHaveLength(2);
    });

    it('when the events array is empty, the expected revision is still checked and the current state returned', async () => {
      const stream = uniqueStream();
      const written = await store().appendToStream(stream, newEvents(2));
      const result = await store().appendToStream(stream, [], { expectedRevision: 1 });
      expect(result).toEqual(written);
      await expectWrongVersion(store().appendToStream(stream, [], { expectedRevision: 'no_stream' }), 1);
      expect(await store().readStream(stream)).toHaveLength(2);
    });

    it('when appending to several streams, positions strictly increase across them', async () => {
      const streams = [uniqueStream(), uniqueStream(), uniqueStream()];
      const positions: number[] = [];
      for (let round = 0; round < 3; round += 1) {
        for (const stream of streams) positions.push((await store().appendToStream(stream, [newEvent()])).position);
      }
      expect(positions.every((position, i) => i === 0 || position > (positions[i - 1] ?? Infinity))).toBe(true);
    });
  });

  describe('appendToStream, idempotence', () => {
    // EventStoreDB only recognises a re-sent batch where its expected revision would put it; the
    // embedded store's stricter refusals (ids recorded elsewhere, partial overlaps) are specified in
    // sqlite-event-store.test.ts, since a real EventStoreDB writes such a batch again.
    const store = useStore(open);

    it('when the same batch is re-sent at the same expected revision, nothing is recorded twice and the first result is returned', async () => {
      const stream = uniqueStream();
      await store().appendToStream(stream, newEvents(2));
      const batch = newEvents(3);
      const first = await store().appendToStream(stream, batch, { expectedRevision: 1 });
      await store().appendToStream(stream, [newEvent()], { expectedRevision: 4 });
      const again = await store().appendToStream(stream, batch, { expectedRevision: 1 });
      expect(again).toEqual(first);
      expect(await store().readStream(stream)).toHaveLength(6);
    });

    it('when the same batch is re-sent with no_stream, it succeeds without writing', async () => {
      const stream = uniqueStream();
      const batch = newEvents(2);
      const first = await store().appendToStream(stream, batch, { expectedRevision: 'no_stream' });
      expect(await store().appendToStream(stream, batch, { expectedRevision: 'no_stream' })).toEqual(first);
      expect(await store().readStream(stream)).toHaveLength(2);
    });

    it.each(['any', 'stream_exists'] as const)('when the same batch is re-sent with %s, it succeeds without writing', async (expectedRevision) => {
      const stream = uniqueStream();
      await store().appendToStream(stream, [newEvent()]);
      const batch = newEvents(2);
      const first = await store().appendToStream(stream, batch, { expectedRevision });
      await store().appendToStream(stream, [newEvent()]);
      expect(await store().appendToStream(stream, batch, { expectedRevision })).toEqual(first);
      expect(await store().readStream(stream)).toHaveLength(4);
    });
  });
}
