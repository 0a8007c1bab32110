import { z } from 'zod';
import { defineEvent, type EventsOf } from '../schema/define-event.ts';
import { positiveId } from '../schema/common-schemas.ts';

/** A range of integer IDs reserved by one writer, in `sequence-<name>`: IDs are never handed out twice. */

export const sequenceName = z.enum(['sale', 'saleProduct', 'sav', 'refund', 'tracking']);
export type SequenceName = z.infer<typeof sequenceName>;

export const IdRangeReserved = defineEvent('IdRangeReserved', z.object({ sequence: sequenceName, first: positiveId, last: positiveId }));

export const idEventDefinitions = [IdRangeReserved] as const;
export type IdEvent = EventsOf<typeof idEventDefinitions>;

export const sequenceStreamName = (name: SequenceName): string => `sequence-${name}`;
