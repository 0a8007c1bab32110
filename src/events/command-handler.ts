import { setTimeout as sleep } from 'node:timers/promises';
import type { DomainEvent } from './registry.ts';
import type { Clock, CommandContext } from './command-context.ts';
import { fold, isRefusal, type Decider, type Refusal } from './decider.ts';
import { appendDomainEvents, readDomainStream, type StreamState } from './domain-store.ts';
import { countWritten, earlierTry } from './idempotency/idempotent-request.ts';
import { WrongExpectedVersionError, type EventStore } from './store/event-store.ts';

/** What a command handler needs from the outside world. It never waits for the read side. */
export type WriteDeps = {
  eventStore: EventStore;
  clock: Clock;
};

/**
 * What a write recorded, as its caller needs to know it: the log position it reached (a reader that
 * must see the write waits for the read models to reach it: the HTTP layer's choice, not the
 * handler's), the streams written, and whether every event was found recorded by an earlier try of
 * the same request (an Idempotency-Key retry whose first answer was lost) rather than appended now.
 */
export type Written = { position: number; streams: readonly string[]; replayed: boolean };

export type CommandOutcome<State, Event extends DomainEvent> =
  | { status: 'accepted'; events: readonly Event[]; state: State; position: number; revision: number; written: Written }
  | { status: 'unchanged'; state: State }
  | { status: 'refused'; refusal: Refusal; state: State };

/** Several writes of one request as one: the furthest position, every stream, replayed only if all were. */
export const writtenTogether = (...parts: readonly (Written | undefined)[]): Written | undefined => {
  const present = parts.filter((part): part is Written => part !== undefined);
  if (present.length === 0) return undefined;
  return {
    position: Math.max(...present.map((part) => part.position)),
    streams: [...new Set(present.flatMap((part) => part.streams))],
    replayed: present.every((part) => part.replayed),
  };
};

/** What an outcome recorded, if it recorded anything. */
export const writtenBy = (outcome: { status: string; written?: Written }): Written | undefined => (outcome.status === 'accepted' ? outcome.written : undefined);

/** Every attempt lost the race on the stream; the caller may retry the whole request. */
export class ConcurrencyConflictError extends Error {
  readonly code = 'CONCURRENCY_CONFLICT';
  constructor(
    readonly streamName: string,
    attempts: number,
  ) {
    super(`Stream ${streamName} kept changing under ${attempts} attempts`);
    this.name = 'ConcurrencyConflictError';
  }
}

const defaultMaxAttempts = 8;

type Accepted<State, Event extends DomainEvent> = Extract<CommandOutcome<State, Event>, { status: 'accepted' }>;

/**
 * Under an idempotency key: the outcome an earlier try of this request recorded in the stream (its
 * events at the request's next ranks, and the state right after them), or null when none is there.
 */
export const earlierOutcome = async <State, Event extends DomainEvent>(
  deps: WriteDeps,
  streamName: string,
  decider: Pick<Decider<State, unknown, Event>, 'initialState' | 'evolve'>,
  context: CommandContext,
  stream?: StreamState<Event>,
): Promise<Accepted<State, Event> | null> => {
  const request = context.idempotency;
  if (!request) return null;
  const { events: recorded } = stream ?? (await readDomainStream<Event>(deps.eventStore, streamName));
  const found = earlierTry(request, streamName, recorded);
  if (found.length === 0) return null;
  const events = found.map((index) => recorded[index]!);
  const last = events.at(-1)!;
  countWritten(request, streamName, events.length);
  return {
    status: 'accepted',
    events,
    state: fold(decider, recorded.slice(0, found.at(-1)! + 1)),
    position: last.position,
    revision: last.revision,
    written: { position: last.position, streams: [streamName], replayed: true },
  };
};

/**
 * Reads the stream, folds it, decides, and appends with the expected revision. On a conflict the
 * stream is read again and the command decided again against the new state, a bounded number of times.
 * A caller that has just read the stream may hand it over (`options.stream`): the first attempt is
 * decided against it, and a conflict reads the stream as usual.
 *
 * Under an idempotency key, events of this very request already in the stream (an earlier try whose
 * answer was lost, or a twin sent at the same time that got there first) are its outcome: the command
 * is answered as accepted with them, as the first try was, rather than decided again against a state
 * that already holds them (which would refuse it: "already acknowledged").
 */
export const handleCommand = async <State, Command, Event extends DomainEvent>(
  deps: WriteDeps,
  streamName: string,
  decider: Decider<State, Command, Event>,
  command: Command,
  context: CommandContext,
  options: { maxAttempts?: number; stream?: StreamState<Event> } = {},
): Promise<CommandOutcome<State, Event>> => {
  const maxAttempts = options.maxAttempts ?? defaultMaxAttempts;
  for (let attempt = 1; ; attempt++) {
    const stream = (attempt === 1 && options.stream) || (await readDomainStream<Event>(deps.eventStore, streamName));
    const earlier = await earlierOutcome(deps, streamName, decider, context, stream);
    if (earlier) return earlier;
    const state = fold(decider, stream.events);
    const decision = decider.decide(command, state);
    if (isRefusal(decision)) return { status: 'refused', refusal: decision, state };
    if (decision.length === 0) return { status: 'unchanged', state };
    try {
      const result = await appendDomainEvents(deps.eventStore, streamName, decision, context, deps.clock.now(), stream.revision);
      if (context.idempotency) countWritten(context.idempotency, streamName, decision.length);
      return {
        status: 'accepted',
        events: decision,
        state: decision.reduce(decider.evolve, state),
        position: result.position,
        revision: result.nextExpectedRevision,
        written: { position: result.position, streams: [streamName], replayed: false },
      };
    } catch (error) {
      if (!(error instanceof WrongExpectedVersionError) || attempt >= maxAttempts) {
        if (error instanceof WrongExpectedVersionError) throw new ConcurrencyConflictError(streamName, attempt);
        throw error;
      }
      // Spread the retries of racing writers so that they do not collide again in lock step.
      await sleep(Math.random() * 5 * attempt);
    }
  }
};
