/**
 * A decider is the pure core of a capability: `decide` turns a command and the current state into
 * the events to record (or a refusal), `evolve` folds one event into the state. Neither does I/O or
 * reads the clock: the command handler resolves time, IDs and reference data and puts them in the command.
 */
export type Decider<State, Command, Event> = {
  initialState: () => State;
  evolve: (state: State, event: Event) => State;
  decide: (command: Command, state: State) => readonly Event[] | Refusal;
};

/** A business refusal: the command is valid but the state does not allow it. Returned, never thrown. */
export class Refusal<Code extends string = string> {
  constructor(
    readonly code: Code,
    readonly message: string,
    readonly details: Readonly<Record<string, unknown>> = {},
  ) {}
}

export const isRefusal = (value: unknown): value is Refusal => value instanceof Refusal;

export const fold = <State, Event>(decider: Pick<Decider<State, unknown, Event>, 'initialState' | 'evolve'>, events: readonly Event[]): State =>
  events.reduce(decider.evolve, decider.initialState());

/** Makes a switch exhaustive: adding a command or event type breaks the build where it is not handled. */
export const assertNever = (value: never): never => {
  throw new Error(`Unhandled case: ${JSON.stringify(value)}`);
};
