import type { z } from 'zod';
import type { PersonalDataRule } from './personal-data.ts';

/**
 * One event type of the registry (registry.ts): its name (equal to the type's name, a past-tense fact), the current
 * schema version and the zod schema of its data at that version. `upcasters[v]` turns data written at
 * version `v` into data of version `v + 1`, so old events are read as the current shape; it calls
 * `repaired` for each value it had to change rather than merely reshape (see read-repairs.ts).
 */
export type Upcaster = (data: unknown, repaired: (field: string, recorded: unknown, read: unknown, reason: string) => void) => unknown;

export type EventDefinition<Type extends string = string, Schema extends z.ZodType = z.ZodType> = {
  readonly type: Type;
  readonly version: number;
  readonly schema: Schema;
  readonly upcasters: Readonly<Record<number, Upcaster>>;
  /** The fields holding personal data, sealed with their customer's key in the log (see personal-data/). */
  readonly personal?: PersonalDataRule;
};

export const defineEvent = <Type extends string, Schema extends z.ZodType>(
  type: Type,
  schema: Schema,
  options: { version?: number; upcasters?: Record<number, Upcaster>; personal?: PersonalDataRule } = {},
): EventDefinition<Type, Schema> => ({
  type,
  version: options.version ?? 1,
  schema,
  upcasters: options.upcasters ?? {},
  ...(options.personal && { personal: options.personal }),
});

/** The domain event a definition describes: `{ type, data }`, with no store metadata. */
export type EventOf<D> = D extends EventDefinition<infer T, infer S> ? { type: T; data: z.output<S> } : never;

/** The union of the domain events of a list of definitions. */
export type EventsOf<Ds extends readonly EventDefinition[]> = EventOf<Ds[number]>;
