import type { CreateSavDeps, CreateSavInput } from '../../../src/events/after-sales/create-sav.ts';
import type { SavSale } from '../../../src/events/after-sales/sav-commands.ts';
import { createIdAllocator } from '../../../src/events/ids/id-allocator.ts';
import { openTestPlanning, type TestPlanning } from '../planning/planning-test-deps.ts';

export const sale: SavSale = {
  saleId: 12,
  incrementId: '100000012',
  saleProductIds: [31, 32],
  products: [
    { saleProductId: 31, sku: 'FRIGO-AMERICAIN-540', name: 'Réfrigérateur américain 540 L' },
    { saleProductId: 32, sku: 'LAVE-LINGE-9KG', name: 'Lave-linge 9 kg' },
  ],
  customerEmail: 'client@example.fr',
};

export type TestSav = TestPlanning & { deps: TestPlanning['deps'] & CreateSavDeps; allocatedSavIds: number[] };

/** SAV handlers on a fresh embedded store: one known sale, and a record of every SAV ID handed out. */
export const openTestSav = async (): Promise<TestSav> => {
  const planning = await openTestPlanning();
  const allocator = createIdAllocator(planning.deps.eventStore, planning.context, { now: planning.deps.clock.now });
  const allocatedSavIds: number[] = [];
  return {
    ...planning,
    allocatedSavIds,
    deps: {
      ...planning.deps,
      ids: {
        next: async (sequence, count) => {
          const ids = await allocator.next(sequence, count);
          if (sequence === 'sav') allocatedSavIds.push(...ids);
          return ids;
        },
      },
      loadSale: async (saleProductIds) => (saleProductIds.some((id) => sale.saleProductIds.includes(id)) ? sale : null),
    },
  };
};

export const savRequest = (overrides: Partial<CreateSavInput> = {}): CreateSavInput => ({
  saleProductIds: [31],
  complaint: 'La porte du réfrigérateur ferme mal',
  complaintName: 'Produit défectueux',
  savType: 'repair',
  channel: 'core',
  appointment: null,
  files: [],
  ...overrides,
});
