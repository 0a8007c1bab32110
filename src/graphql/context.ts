import type { CommandContext } from '../events/command-context.ts';
import type { WritesOfRequest } from '../http/read-your-writes.ts';
import type { Runtime } from '../runtime.ts';
import type { TimeBudget } from './time-budget.ts';

/** What every resolver receives: the runtime it reads and writes through, and who is asking. */
export type GraphqlContext = {
  runtime: Runtime;
  /** The authenticated token's attribution, carried into every event a mutation records. */
  commandContext: CommandContext;
  token: { tokenId: string; group: string; label: string };
  /**
   * What the operation's mutations wrote: the HTTP request's own record (the server hands resolvers a
   * copy of this context, so a write noted on the context itself would be lost), so that its answer
   * waits for the read models to apply them (http/read-your-writes.ts).
   */
  writes: WritesOfRequest;
  /** Set when the operation starts executing (time-budget.ts). */
  timeBudget?: TimeBudget;
};
