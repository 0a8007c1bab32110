import Database from 'better-sqlite3';
import { WrongExpectedVersionError, type ExpectedRevision } from './event-store.ts';
import type { AppendOutcome, AppendRequest } from './sqlite-group-commit.ts';

/**
 * What the thread that commits the embedded log's appends (sqlite-writer-thread.ts) and its worker
 * (sqlite-writer-worker.ts) say to each other. Errors cross as data: the ones callers tell apart (a
 * wrong expected revision, SQLite's own with its code) are made again as they were.
 */

export type WriterData = { file: string; busyTimeoutMs: number };
export type WriterRequest = { type: 'commit'; id: number; appends: AppendRequest[]; recordedAt: string } | { type: 'close' };

type WireError =
  | { kind: 'wrong_version'; streamName: string; expected: ExpectedRevision; actual: number | 'no_stream' }
  | { kind: 'sqlite'; code: string; message: string }
  | { kind: 'error'; name: string; message: string };
type WireOutcome = Extract<AppendOutcome, { ok: true }> | { ok: false; error: WireError };
export type WriterReply = { id: number; outcomes: WireOutcome[] } | { id: number; failure: WireError };

const toWire = (error: unknown): WireError => {
  if (error instanceof WrongExpectedVersionError) {
    return { kind: 'wrong_version', streamName: error.streamName, expected: error.expected, actual: error.actual };
  }
  if (error instanceof Database.SqliteError) return { kind: 'sqlite', code: error.code, message: error.message };
  return error instanceof Error ? { kind: 'error', name: error.name, message: error.message } : { kind: 'error', name: 'Error', message: String(error) };
};

const fromWire = (wire: WireError): Error => {
  switch (wire.kind) {
    case 'wrong_version':
      return new WrongExpectedVersionError(wire.streamName, wire.expected, wire.actual);
    case 'sqlite':
      return new Database.SqliteError(wire.message, wire.code);
    case 'error':
      return Object.assign(new Error(wire.message), { name: wire.name });
  }
};

export const outcomesToWire = (outcomes: readonly AppendOutcome[]): WireOutcome[] =>
  outcomes.map((outcome) => (outcome.ok ? outcome : { ok: false, error: toWire(outcome.error) }));

export const outcomesFromWire = (outcomes: readonly WireOutcome[]): AppendOutcome[] =>
  outcomes.map((outcome) => (outcome.ok ? outcome : { ok: false, error: fromWire(outcome.error) }));

export const failureToWire = toWire;
export const failureFromWire = fromWire;
