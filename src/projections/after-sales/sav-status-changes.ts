import { assertNever } from '../../events/decider.ts';
import type { EventOfType, StoredEvent } from '../../events/registry.ts';
import type { Actor } from '../../events/store/event-store.ts';
import type { SavDocument, SavStatus, SavStatusChange } from './sav-document.ts';

/** How the status events of a SAV change its document: pure, applied once by the projection. */

export type SavStatusEvent = EventOfType<'SavResolved' | 'SavClosed' | 'SavReopened' | 'SavCancelled'>;
type Sav = Omit<SavDocument, '_id' | '_position'>;

/** Who made a change: the label of the token behind it (staff tools, the chatbot); null for the system. */
export const actorLabel = (actor: Actor): string | null => (actor.kind === 'token' ? actor.label : null);

/** The first step of every history: the SAV opened, in progress. */
export const openedStep = (event: StoredEvent<EventOfType<'SavCreated'>>): SavStatusChange => ({
  status: 'in_progress',
  at: event.data.createdAt,
  by: actorLabel(event.metadata.actor),
  note: null,
});

export const withStatusChange = (sav: SavDocument, event: StoredEvent<SavStatusEvent>): Sav => {
  const step = (status: SavStatus, at: string, note: string | null): Pick<Sav, 'status' | 'statusChangedAt' | 'statusHistory'> => ({
    status,
    statusChangedAt: at,
    statusHistory: [...sav.statusHistory, { status, at, by: actorLabel(event.metadata.actor), note }],
  });
  switch (event.type) {
    case 'SavResolved': {
      const { resolution, resolvedAt } = event.data;
      return { ...sav, ...step('resolved', resolvedAt, resolution), resolution, resolvedAt };
    }
    case 'SavClosed': {
      const { closedAt, releasedAppointment } = event.data;
      return { ...sav, ...step('closed', closedAt, null), closedAt, appointment: releasedAppointment ? null : sav.appointment };
    }
    case 'SavReopened': {
      const { reason, reopenedAt } = event.data;
      return { ...sav, ...step('in_progress', reopenedAt, reason), reopenedAt, resolution: null, resolvedAt: null, closedAt: null };
    }
    case 'SavCancelled': {
      const { reason, cancelledAt, releasedAppointment } = event.data;
      return {
        ...sav,
        ...step('cancelled', cancelledAt, reason),
        cancelledAt,
        cancellationReason: reason,
        appointment: releasedAppointment ? null : sav.appointment,
      };
    }
    default:
      return assertNever(event);
  }
};
