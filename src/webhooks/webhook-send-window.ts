import type { SendOutcome, WebhookSender } from './webhook-sender.ts';
import { signWebhook } from './webhook-signature.ts';

/**
 * A window of one subscription's messages, sent in the order given: each once the one before it was
 * answered 2xx, none after the first failure (the receiver sees nothing after a message it refused).
 * Each is signed as it goes out, so that its `webhook-timestamp` is the time of its send whatever the
 * wait behind the ones before it (receivers' libraries refuse a timestamp five minutes off). A window
 * also stops, the rest unsent, once it has been sending for `windowMs`: a slow receiver's window comes
 * back in about that time, so that what it took is recorded and visible, and a crash repeats little.
 * Free of any thread: the sending thread runs it (webhook-send-thread.ts).
 */

export type WindowMessage = { id: string; body: string };
export type SendWindow = { subscriptionId: string; url: string; secrets: readonly string[]; messages: readonly WindowMessage[] };

/** The outcomes of the messages sent, in order: all 2xx but maybe the last; those after them were not sent. */
export type WindowOutcomes = SendOutcome[];

export const sendWindow = async (sender: WebhookSender, window: SendWindow, windowMs: number, signal: AbortSignal): Promise<WindowOutcomes> => {
  const startedAt = Date.now();
  const outcomes: WindowOutcomes = [];
  for (const message of window.messages) {
    if (signal.aborted || (outcomes.length > 0 && Date.now() - startedAt >= windowMs)) break;
    const headers = signWebhook(window.secrets, message.id, Math.floor(Date.now() / 1000), message.body);
    const outcome = await sender.send(window.subscriptionId, window.url, headers, message.body, signal);
    outcomes.push(outcome);
    if (!outcome.ok) break;
  }
  return outcomes;
};
