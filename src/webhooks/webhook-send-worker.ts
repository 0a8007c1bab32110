import { parentPort, workerData } from 'node:worker_threads';
import { yieldToForeground } from '../concurrency/thread-priority.ts';
import { createWebhookSender } from './webhook-sender.ts';
import { sendWindow } from './webhook-send-window.ts';
import type { SendThreadData, SendThreadReply, SendThreadRequest } from './webhook-send-thread.ts';

/** The webhooks' sending thread (webhook-send-thread.ts): windows sent as asked through its port, each answered once, whole. */
// Deliveries are background work: the API's requests go first on a busy machine.
yieldToForeground();
const port = parentPort!;
const { send, windowMs } = workerData as SendThreadData;
const sender = createWebhookSender(send);
const sending = new Map<number, AbortController>();

port.on('message', (request: SendThreadRequest) => {
  if (request.type === 'stop') {
    sending.get(request.id)?.abort();
    return;
  }
  const controller = new AbortController();
  sending.set(request.id, controller);
  sendWindow(sender, request.window, windowMs, controller.signal)
    .then(
      (outcomes): SendThreadReply => ({ id: request.id, outcomes }),
      (error: unknown): SendThreadReply => ({ id: request.id, error: error instanceof Error ? error.message : String(error) }),
    )
    .then((reply) => {
      sending.delete(request.id);
      port.postMessage(reply);
    });
});
