import { WrongExpectedVersionError, type AppendResult, type ExpectedRevision } from './event-store.ts';
import type { SerialisedEvent } from './event-store-validation.ts';
import type { Statements } from './sqlite-schema.ts';

const NO_STREAM = -1;

/**
 * Where a re-sent batch would have been written, if it was written before: right after the expected
 * revision; at revision 0 for `no_stream`; for `any` and `stream_exists`, where its first id is.
 */
function impliedStart(statements: Statements, streamName: string, expected: ExpectedRevision, firstId: string): number | undefined {
  if (typeof expected === 'number') return expected + 1;
  if (expected === 'no_stream') return 0;
  return statements.revisionOfId.get(streamName, firstId)?.revision;
}

function matchesExpected(expected: ExpectedRevision, actual: number): boolean {
  if (expected === 'any') return true;
  if (expected === 'no_stream') return actual === NO_STREAM;
  if (expected === 'stream_exists') return actual !== NO_STREAM;
  return expected === actual;
}

const wrongVersion = (streamName: string, expected: ExpectedRevision, actual: number): WrongExpectedVersionError =>
  new WrongExpectedVersionError(streamName, expected, actual === NO_STREAM ? 'no_stream' : actual);

/**
 * The body of an append; the caller runs it inside a `BEGIN IMMEDIATE` transaction, so that the
 * checks and the writes see the same stream even when another process appends to the file, and in a
 * savepoint of its own, since the transaction may hold other appends (sqlite-group-commit.ts).
 *
 * Idempotence follows EventStoreDB: when the batch's ids are already recorded, in the same order,
 * exactly where this expected revision would have put them, the batch was written before (a retry
 * after a lost acknowledgement): nothing is written and the first append's result is returned. A batch
 * that only partly matches, or whose ids are recorded elsewhere in the stream, is a conflict and fails
 * with WrongExpectedVersionError. An empty batch only checks the expected revision and reports the
 * stream's state (revision and position -1 when the stream does not exist). `written` says whether
 * rows were inserted (false for a batch found recorded, and for an empty one).
 */
export function appendInTransaction(
  statements: Statements,
  streamName: string,
  events: readonly SerialisedEvent[],
  expected: ExpectedRevision,
  recordedAt: string,
): { result: AppendResult; written: boolean } {
  const last = statements.streamLast.get(streamName);
  const actual = last?.revision ?? NO_STREAM;
  const [first] = events;

  if (first !== undefined) {
    const start = impliedStart(statements, streamName, expected, first.id);
    if (start !== undefined && start <= actual) {
      const recorded = statements.idsFrom.all(streamName, start, events.length);
      const same = recorded.length === events.length && recorded.every((row, i) => row.event_id === events[i]?.id);
      const lastRecorded = recorded.at(-1);
      if (same && lastRecorded !== undefined) {
        return { result: { nextExpectedRevision: start + events.length - 1, position: lastRecorded.position }, written: false };
      }
      throw wrongVersion(streamName, expected, actual);
    }
  }

  if (!matchesExpected(expected, actual)) throw wrongVersion(streamName, expected, actual);
  if (first === undefined) return { result: { nextExpectedRevision: actual, position: last?.position ?? -1 }, written: false };
  if (statements.anyIdInStream.get(streamName, JSON.stringify(events.map((e) => e.id))) !== undefined) {
    throw wrongVersion(streamName, expected, actual);
  }

  let revision = actual;
  let position = -1;
  for (const event of events) {
    revision += 1;
    const info = statements.insert.run(streamName, revision, event.id, event.type, event.data, event.metadata, recordedAt);
    position = Number(info.lastInsertRowid);
  }
  return { result: { nextExpectedRevision: revision, position }, written: true };
}
