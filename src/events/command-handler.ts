import { setTimeout as sleep } from 'node:timers/promises';
import type { DomainEvent, DomainEventType } from './catalogue/catalogue.ts';
import type { Clock, CommandContext } from './command-context.ts';
import { fold, isRefusal, type Decider, type Refusal } from './decider.ts';
import { appendDomainEvents, readDomainStream } from './domain-store.ts';
import { WrongExpectedVersionError, type EventStore } from './store/event-store.ts';

/** What a command handler needs from the outside world. */
export type WriteDeps = {
  eventStore: EventStore;
  clock: Clock;
  /**
   * Read-your-writes: resolves once the projections interested in these event types have applied the
   * events up to `position` (bounded wait; on time-out it logs and resolves).
   */
  awaitProjections: (position: number, types: readonly DomainEventType[]) => Promise<void>;
};

export type CommandOutcome<State, Event extends DomainEvent> =
  | { status: 'accepted'; events: readonly Event[]; state: State; position: number; revision: number }
  | { status: 'unchanged'; state: State }
  | { status: 'refused'; refusal: Refusal; state: State };

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

/**
 * Reads the stream, folds it, decides, and appends with the expected revision. On a conflict the
 * stream is read again and the command decided again against the new state, a bounded number of times.
 */
export const handleCommand = async <State, Command, Event extends DomainEvent>(
  deps: WriteDeps,
  streamName: string,
  decider: Decider<State, Command, Event>,
  command: Command,
  context: CommandContext,
  options: { maxAttempts?: number } = {},
): Promise<CommandOutcome<State, Event>> => {
  const maxAttempts = options.maxAttempts ?? defaultMaxAttempts;
  for (let attempt = 1; ; attempt++) {
    const stream = await readDomainStream<Event>(deps.eventStore, streamName);
    const state = fold(decider, stream.events);
    const decision = decider.decide(command, state);
    if (isRefusal(decision)) return { status: 'refused', refusal: decision, state };
    if (decision.length === 0) return { status: 'unchanged', state };
    try {
      const result = await appendDomainEvents(deps.eventStore, streamName, decision, context, deps.clock.now(), stream.revision);
      await deps.awaitProjections(
        result.position,
        decision.map((event) => event.type),
      );
      return {
        status: 'accepted',
        events: decision,
        state: decision.reduce(decider.evolve, state),
        position: result.position,
        revision: result.nextExpectedRevision,
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
