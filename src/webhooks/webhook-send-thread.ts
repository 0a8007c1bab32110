import type { Worker } from 'node:worker_threads';
import { startWorker, workerEntry } from '../concurrency/worker-entry.ts';
import { createWebhookSender, type WebhookSendOptions } from './webhook-sender.ts';
import { sendWindow, type SendWindow, type WindowOutcomes } from './webhook-send-window.ts';

/**
 * The webhooks' sends, made in a thread of their own: a window of a subscription's messages goes out
 * there one message after another at the receiver's pace (webhook-send-window.ts), and its outcomes
 * come back together, so that the event loop that also answers the API takes one turn per window, not
 * one per message. Windows of different subscriptions are sent side by side. The address check and the
 * pinned connections are the sender's (webhook-sender.ts), in that thread.
 *
 * A resolver given as a function (the specs' stand-in for DNS) cannot cross to a thread: the windows
 * are then sent in this one.
 */

export type WebhookSendThreadOptions = {
  send?: WebhookSendOptions;
  /** A window stops, the rest unsent, once it has been sending this long (default 1 s). */
  windowMs?: number;
};

export type WebhookSendThread = {
  /**
   * Sends a window; its outcomes, in order (those not sent are missing). `signal` breaks off the send
   * under way, the rest unsent. Rejects when the thread failed: what it sent is not known.
   */
  send: (window: SendWindow, signal: AbortSignal) => Promise<WindowOutcomes>;
  /** Stops the thread; windows under way reject. */
  close: () => Promise<void>;
};

export type SendThreadData = { send: WebhookSendOptions; windowMs: number };
export type SendThreadRequest = { type: 'send'; id: number; window: SendWindow } | { type: 'stop'; id: number };
export type SendThreadReply = { id: number; outcomes: WindowOutcomes } | { id: number; error: string };

export class WebhookSendThreadError extends Error {
  readonly code = 'WEBHOOK_SEND_THREAD_FAILED';
  constructor(message: string) {
    super(message);
    this.name = 'WebhookSendThreadError';
  }
}

export const startWebhookSendThread = (options: WebhookSendThreadOptions = {}): WebhookSendThread => {
  const data: SendThreadData = { send: options.send ?? {}, windowMs: options.windowMs ?? 1_000 };
  if (data.send.resolve) {
    const sender = createWebhookSender(data.send);
    return { send: (window, signal) => sendWindow(sender, window, data.windowMs, signal), close: async () => sender.close() };
  }

  const waiting = new Map<number, { resolve: (outcomes: WindowOutcomes) => void; reject: (error: Error) => void }>();
  let lastId = 0;
  const failAll = (error: Error) => {
    for (const window of waiting.values()) window.reject(error);
    waiting.clear();
  };
  let worker: Worker | undefined;
  const thread = (): Worker => {
    if (worker) return worker;
    const started = startWorker(workerEntry(new URL('./webhook-send-worker.ts', import.meta.url), 'webhook-send-worker'), {
      workerData: data,
      resourceLimits: { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 8 },
    });
    started.on('message', (reply: SendThreadReply) => {
      const window = waiting.get(reply.id);
      waiting.delete(reply.id);
      if ('error' in reply) window?.reject(new WebhookSendThreadError(`the webhooks' sending thread failed a window: ${reply.error}`));
      else window?.resolve(reply.outcomes);
    });
    // A thread that failed fails the windows under way (their loops start again) and is replaced at the next window.
    const lost = (error?: unknown) => {
      if (worker !== started) return;
      worker = undefined;
      failAll(new WebhookSendThreadError(`the webhooks' sending thread stopped${error instanceof Error ? `: ${error.message}` : ''}`));
    };
    started.on('error', lost);
    started.on('exit', () => lost());
    // The loops keep the process alive while they run; the thread alone does not.
    started.unref();
    return (worker = started);
  };

  return {
    send: (window, signal) =>
      new Promise((resolve, reject) => {
        const id = ++lastId;
        const sending = thread();
        const stop = () => sending.postMessage({ type: 'stop', id } satisfies SendThreadRequest);
        signal.addEventListener('abort', stop, { once: true });
        const settled = () => signal.removeEventListener('abort', stop);
        waiting.set(id, {
          resolve: (outcomes) => (settled(), resolve(outcomes)),
          reject: (error) => (settled(), reject(error)),
        });
        sending.postMessage({ type: 'send', id, window } satisfies SendThreadRequest);
        if (signal.aborted) stop();
      }),
    close: async () => {
      const stopping = worker;
      worker = undefined;
      failAll(new WebhookSendThreadError("the webhooks' sending thread was closed"));
      await stopping?.terminate();
    },
  };
};
