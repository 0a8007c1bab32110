import SchemaBuilder from '@pothos/core';
import ComplexityPlugin from '@pothos/plugin-complexity';
import DataloaderPlugin from '@pothos/plugin-dataloader';
import RelayPlugin from '@pothos/plugin-relay';
import ScopeAuthPlugin from '@pothos/plugin-scope-auth';
import type { GraphqlContext } from './context.ts';
import { defaultFieldCost, pricedAbove } from './cost.ts';
import { forbidden } from './errors.ts';

/**
 * The one schema builder: its typed context and plugins. Capability modules add their types and
 * fields to it; schema.ts imports them all and builds the schema.
 */
export const builder = new SchemaBuilder<{
  Context: GraphqlContext;
  Scalars: {
    DateTime: { Input: string; Output: string };
    LocalDate: { Input: string; Output: string };
    Position: { Input: number; Output: number };
    JSON: { Input: unknown; Output: unknown };
  };
  DefaultFieldNullability: false;
  /** `staff`: a token of the core group (the back office's tools); analysts and auditors read. */
  AuthScopes: { staff: boolean };
}>({
  // Scope auth first: its check runs before what the other plugins wrap around a resolver.
  plugins: [ScopeAuthPlugin, RelayPlugin, DataloaderPlugin, ComplexityPlugin],
  scopeAuth: {
    authScopes: ({ token }) => ({ staff: token.group === 'core' }),
    // Checked before the resolver runs: a refused change records nothing.
    unauthorizedError: () => forbidden('Only staff (a Bearer token of the core group) may run this mutation'),
  },
  defaultFieldNullability: false,
  // Each field's cost (cost.ts); no limit here: the operation is priced and refused before it runs (limits.ts).
  complexity: { fieldComplexity: defaultFieldCost },
  // The read models are addressed by their own IDs (saleId, incrementId): no global Node lookup.
  // A connection's multiplier is its page: its pageInfo, answered once, is priced with it.
  relay: { nodeQueryOptions: false, nodesQueryOptions: false, pageInfoFieldOptions: { complexity: pricedAbove } },
});

builder.queryType({ description: 'Reads for internal analysts and auditors.' });
builder.mutationType({ description: 'Changes for internal staff, through the same command handlers as the REST API.' });
