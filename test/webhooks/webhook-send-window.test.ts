import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import type { SendOutcome, WebhookSender } from '../../src/webhooks/webhook-sender.ts';
import { sendWindow, type SendWindow } from '../../src/webhooks/webhook-send-window.ts';

/**
 * A window of a subscription's messages, as the sending thread sends it, over a sender whose answers
 * the spec scripts: in order, each once the one before it was answered 2xx, none after a failure, and
 * each signed as it goes out.
 */

const secret = `whsec_${Buffer.alloc(32, 3).toString('base64')}`;
const ok: SendOutcome = { ok: true, status: 200 };
const refused: SendOutcome = { ok: false, status: 500, error: 'the endpoint answered HTTP 500' };

const scripted = (answer: (index: number) => SendOutcome, delayMs = 0) => {
  const sent: { body: string; headers: Record<string, string>; at: number }[] = [];
  const sender: WebhookSender = {
    send: async (_subscriptionId, _url, headers, body) => {
      sent.push({ body, headers, at: Date.now() });
      if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
      return answer(sent.length - 1);
    },
    close: () => undefined,
  };
  return { sender, sent };
};
const windowOf = (count: number): SendWindow => ({
  subscriptionId: 'wh_a',
  url: 'https://hooks.example/',
  secrets: [secret],
  messages: Array.from({ length: count }, (_, index) => ({ id: `msg_${index}`, body: JSON.stringify({ index }) })),
});

describe('a window of webhook messages', () => {
  it('when every message is answered 2xx, each is sent in order and signed as Standard Webhooks says, and every outcome comes back', async () => {
    const { sender, sent } = scripted(() => ok);
    const outcomes = await sendWindow(sender, windowOf(5), 1_000, new AbortController().signal);
    expect(outcomes).toEqual([ok, ok, ok, ok, ok]);
    expect(sent.map(({ body }) => JSON.parse(body).index)).toEqual([0, 1, 2, 3, 4]);
    for (const { body, headers } of sent) expect(() => new Webhook(secret).verify(body, headers)).not.toThrow();
  });

  it('when a message in the middle is refused, nothing after it is sent and the outcomes stop at it', async () => {
    const { sender, sent } = scripted((index) => (index === 2 ? refused : ok));
    const outcomes = await sendWindow(sender, windowOf(6), 1_000, new AbortController().signal);
    expect(outcomes).toEqual([ok, ok, refused]);
    expect(sent).toHaveLength(3);
  });

  it('when the window has been sending for its time, the rest comes back unsent, and each message sent was signed at its own send', async () => {
    const { sender, sent } = scripted(() => ok, 40);
    const outcomes = await sendWindow(sender, windowOf(20), 100, new AbortController().signal);
    // Twenty sends of 40 ms do not fit in 100 ms: none starts after the window's time.
    expect(outcomes.length).toBeLessThan(20);
    expect(outcomes).toHaveLength(sent.length);
    for (const { at } of sent) expect(at - sent[0]!.at).toBeLessThan(100);
    for (const { headers, at } of sent) expect(Number(headers['webhook-timestamp'])).toBe(Math.floor(at / 1000));
  });

  it('when the loop stops, the send under way is the last', async () => {
    const controller = new AbortController();
    const { sender, sent } = scripted((index) => {
      if (index === 1) controller.abort();
      return ok;
    });
    const outcomes = await sendWindow(sender, windowOf(5), 1_000, controller.signal);
    expect(outcomes).toEqual([ok, ok]);
    expect(sent).toHaveLength(2);
  });
});
