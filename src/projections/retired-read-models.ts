/**
 * Read models the service kept once and keeps no more. A data folder or database from before keeps
 * their collections; the engine drops them, with their checkpoints and their entry in the registry of
 * generations, when it starts (engine/garbage.ts). Their names stay reserved: never reuse one.
 */
export type RetiredReadModel = { name: string; collections: readonly string[] };

export const retiredReadModels: readonly RetiredReadModel[] = [
  // A sale's history is read from its own streams since (src/graphql/sale-log/sale-log.ts).
  { name: 'sale-log', collections: ['sale_log', 'sale_log_savs', 'sale_log_products'] },
];
