import { isRefusal, type Refusal } from '../../../events/decider.ts';
import type { SaleCommand } from '../../../events/sales/commands.ts';
import { saleDecider } from '../../../events/sales/decider.ts';
import { readSale } from '../../../events/sales/deps.ts';
import type { Runtime } from '../../../runtime.ts';

/**
 * What the sale's decider answers to the command now, its events discarded: the precheck that keeps a
 * refused action from burning its single-use token. The sale's stream, not its read model, is read,
 * so the precheck judges by the same state the command will.
 */
export const saleRefusal = async (runtime: Runtime, incrementId: string, command: SaleCommand): Promise<Refusal | null> => {
  const decision = saleDecider.decide(command, await readSale(runtime.eventStore, incrementId));
  return isRefusal(decision) ? decision : null;
};
