import { randomUUID } from 'node:crypto';
import type { CommandContext } from '../command-context.ts';
import { handleCommand, writtenBy, type CommandOutcome, type WriteDeps, type Written } from '../command-handler.ts';
import { requestChosenUuid } from '../idempotency/idempotent-request.ts';
import type { Refusal } from '../decider.ts';
import { leadStreamName, type LeadEvent } from './events.ts';
import { leadDecider, nextAttemptDelay, type LeadNotification, type LeadRefusalCode, type LeadState } from './lead-decider.ts';

export type CaptureLeadInput = { name: string; email: string; phone: string | null; projectName: string | null };

/** A freshly allocated lead ID already had a stream: only possible if the ID source is broken. */
export class LeadIdTakenError extends Error {
  readonly code = 'LEAD_ID_TAKEN';
  constructor(readonly leadId: string) {
    super(`Lead ID ${leadId} is already taken`);
    this.name = 'LeadIdTakenError';
  }
}

/** Records a contact lead; the notification e-mail is left to the outbox job. */
export const captureLead = async (
  deps: WriteDeps,
  input: CaptureLeadInput,
  context: CommandContext,
): Promise<{ leadId: string; written: Written | undefined }> => {
  // Under an idempotency key the ID is the request's own, so that a retry finds the lead it recorded.
  const leadId = context.idempotency ? requestChosenUuid(context.idempotency, 'lead') : randomUUID();
  const at = deps.clock.now().toISOString();
  const outcome = await handleCommand(deps, leadStreamName(leadId), leadDecider, { type: 'CaptureLead', leadId, ...input, at }, context);
  if (outcome.status === 'refused') throw new LeadIdTakenError(leadId);
  return { leadId, written: writtenBy(outcome) };
};

export type NotificationOutcome =
  { status: 'recorded' | 'unchanged'; notification: LeadNotification; written?: Written } | { status: 'refused'; refusal: Refusal<LeadRefusalCode> };

const toNotificationOutcome = (outcome: CommandOutcome<LeadState, LeadEvent>): NotificationOutcome => {
  if (outcome.status === 'refused') return { status: 'refused', refusal: outcome.refusal as Refusal<LeadRefusalCode> };
  // A lead that exists is the only state in which recording an outcome is not refused.
  if (outcome.state.status === 'absent') throw new Error('unreachable: outcome recorded on an absent lead');
  return { status: outcome.status === 'accepted' ? 'recorded' : 'unchanged', notification: outcome.state.notification, written: writtenBy(outcome) };
};

export const recordNotificationSent = async (
  deps: WriteDeps,
  input: { leadId: string; attempt: number; transport: 'smtp' | 'file'; messageId: string },
  context: CommandContext,
): Promise<NotificationOutcome> => {
  const { leadId, ...sent } = input;
  const at = deps.clock.now().toISOString();
  const outcome = await handleCommand(deps, leadStreamName(leadId), leadDecider, { type: 'RecordLeadNotificationSent', ...sent, at }, context);
  return toNotificationOutcome(outcome);
};

/** The recorded error text is bounded; a transport's full stack trace belongs in the logs. */
const maxErrorLength = 2000;

/** Records a failed attempt and schedules the next one after the back-off delay. */
export const recordNotificationFailed = async (
  deps: WriteDeps,
  input: { leadId: string; attempt: number; error: string },
  context: CommandContext,
): Promise<NotificationOutcome> => {
  const now = deps.clock.now();
  const command = {
    type: 'RecordLeadNotificationFailed' as const,
    attempt: input.attempt,
    error: input.error.slice(0, maxErrorLength),
    nextAttemptAt: new Date(now.getTime() + nextAttemptDelay(input.attempt)).toISOString(),
    at: now.toISOString(),
  };
  const outcome = await handleCommand(deps, leadStreamName(input.leadId), leadDecider, command, context);
  return toNotificationOutcome(outcome);
};
