import type { CommandContext } from '../events/command-context.ts';
import type { WritesOfRequest } from '../http/read-your-writes.ts';
import type { Runtime } from '../runtime.ts';
import type { TimeBudget } from './time-budget.ts';

/** What every resolver receives: the runtime it reads and writes through, and who is asking. */
export type GraphqlContext = WritesOfRequest & {
  runtime: Runtime;
  /** The authenticated token's attribution, carried into every event a mutation records. */
  commandContext: CommandContext;
  token: { tokenId: string; group: string; label: string };
  /** Set when the operation starts executing (time-budget.ts). */
  timeBudget?: TimeBudget;
};
