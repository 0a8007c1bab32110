import SchemaBuilder from '@pothos/core';
import DataloaderPlugin from '@pothos/plugin-dataloader';
import RelayPlugin from '@pothos/plugin-relay';
import type { GraphqlContext } from './context.ts';

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
}>({
  plugins: [RelayPlugin, DataloaderPlugin],
  defaultFieldNullability: false,
  // The read models are addressed by their own IDs (saleId, incrementId): no global Node lookup.
  relay: { nodeQueryOptions: false, nodesQueryOptions: false },
});

builder.queryType({ description: 'Reads for internal analysts and auditors.' });
builder.mutationType({ description: 'Changes for internal staff, through the same command handlers as the REST API.' });
