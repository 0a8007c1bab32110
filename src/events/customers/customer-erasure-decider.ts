import type { Decider } from '../decider.ts';
import type { CustomerEvent } from './events.ts';

/**
 * The erasure of one customer key, in its own stream: recorded once. The key is deleted from the key
 * store before (erase-customer.ts); recording the fact a second time (a retry after a crash between
 * the two) changes nothing.
 */

export type RecordCustomerErasure = {
  type: 'RecordCustomerErasure';
  keyId: string;
  sales: { saleId: number; incrementId: string }[];
  savIds: number[];
  leadIds: string[];
  at: string;
};

export type CustomerErasureState = { recorded: boolean };

export const customerErasureDecider: Decider<CustomerErasureState, RecordCustomerErasure, CustomerEvent> = {
  initialState: () => ({ recorded: false }),
  evolve: () => ({ recorded: true }),
  decide: (command, state) =>
    state.recorded
      ? []
      : [
          {
            type: 'CustomerErased',
            data: { keyId: command.keyId, sales: command.sales, savIds: command.savIds, leadIds: command.leadIds, erasedAt: command.at },
          },
        ],
};
