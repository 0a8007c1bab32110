import { SMTPServer } from 'smtp-server';

/**
 * A real SMTP server on a loopback port that keeps what it receives, and a minimal reader of the
 * messages: headers (unfolded, RFC 2047 words decoded) and the text part (quoted-printable or base64).
 */

export type ReceivedMail = {
  envelope: { from: string; to: string[] };
  raw: string;
  headers: Map<string, string>;
  header: (name: string) => string | undefined;
  text: string;
};

export type SmtpTestServer = {
  port: number;
  url: string;
  received: ReceivedMail[];
  /** Resolves once `count` messages have arrived; rejects after `timeoutMs`. */
  waitForMessages: (count: number, timeoutMs?: number) => Promise<ReceivedMail[]>;
  /**
   * Holds the answer to every message from now on: its client waits after sending it, the message not
   * yet accepted. `release` answers them; a message whose client went away meanwhile (killed) was
   * never accepted and is not kept, as a real server discards it.
   */
  hold: () => void;
  release: () => void;
  /** Resolves once `count` messages wait for their answer; rejects after `timeoutMs`. */
  waitForHeld: (count: number, timeoutMs?: number) => Promise<void>;
  /** How many of the messages held have lost their client. */
  heldOfClosedSessions: () => number;
  close: () => Promise<void>;
};

export { freeLoopbackPort } from './free-port.ts';

const wordBytes = (encoding: string, data: string): Buffer =>
  encoding.toUpperCase() === 'B'
    ? Buffer.from(data, 'base64')
    : Buffer.from(
        data.replace(/_/g, ' ').replace(/=([0-9A-Fa-f]{2})/g, (_hex, code: string) => String.fromCharCode(parseInt(code, 16))),
        'latin1',
      );

/** RFC 2047: a run of adjacent encoded words is one text (a character may be split across two words). */
const decodeWords = (value: string): string =>
  value.replace(/(?:=\?[^?]+\?[QqBb]\?[^?]*\?=\s*)+/g, (run) => {
    const trailing = /\s*$/.exec(run)?.[0] ?? '';
    const bytes = [...run.matchAll(/=\?[^?]+\?([QqBb])\?([^?]*)\?=/g)].map(([, encoding, data]) => wordBytes(encoding ?? 'Q', data ?? ''));
    return Buffer.concat(bytes).toString('utf8') + trailing;
  });

const parseHeaders = (block: string): Map<string, string> => {
  const headers = new Map<string, string>();
  for (const line of block.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), decodeWords(line.slice(colon + 1).trim()));
  }
  return headers;
};

const decodeBody = (body: string, encoding: string | undefined): string => {
  switch (encoding?.toLowerCase()) {
    case 'quoted-printable':
      return Buffer.from(
        body.replace(/=\r\n/g, '').replace(/=([0-9A-Fa-f]{2})/g, (_hex, code: string) => String.fromCharCode(parseInt(code, 16))),
        'latin1',
      ).toString('utf8');
    case 'base64':
      return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
    default:
      return body;
  }
};

/** The headers and the text/plain part of an RFC 5322 message with CRLF line ends. */
export const readMessage = (raw: string): Pick<ReceivedMail, 'headers' | 'header' | 'text'> => {
  const normalised = raw.replace(/\r?\n/g, '\r\n');
  const split = normalised.indexOf('\r\n\r\n');
  const headers = parseHeaders(normalised.slice(0, split));
  let body = normalised.slice(split + 4);
  let partHeaders = headers;
  const boundary = /boundary="?([^";]+)"?/i.exec(headers.get('content-type') ?? '')?.[1];
  if (boundary) {
    const parts = body.split(`--${boundary}`).slice(1, -1);
    const textPart = parts.find((part) => /content-type:\s*text\/plain/i.test(part)) ?? '';
    const partSplit = textPart.indexOf('\r\n\r\n');
    partHeaders = parseHeaders(textPart.slice(0, partSplit).trim());
    body = textPart.slice(partSplit + 4);
  }
  const text = decodeBody(body, partHeaders.get('content-transfer-encoding')).replace(/\r\n/g, '\n');
  return { headers, header: (name) => headers.get(name.toLowerCase()), text };
};

/**
 * Starts the server on `port` (default: any free loopback port). Without TLS, without required
 * authentication: the service under test connects to `smtp://127.0.0.1:<port>`. `rejectWhen` makes the
 * server refuse a message with 550 after reading it.
 */
export const startSmtpTestServer = async (options: { port?: number; rejectWhen?: (raw: string) => boolean } = {}): Promise<SmtpTestServer> => {
  const received: ReceivedMail[] = [];
  const waiters: Array<() => void> = [];
  let holding = false;
  const held: Array<{ session: string; accept: () => void }> = [];
  const closedSessions = new Set<string>();
  const wakeAll = () => {
    for (const wake of waiters.splice(0)) wake();
  };
  const server = new SMTPServer({
    secure: false,
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onClose(session) {
      closedSessions.add(session.id);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        if (options.rejectWhen?.(raw)) {
          callback(Object.assign(new Error('Message refused by policy'), { responseCode: 550 }));
          return;
        }
        const accept = () => {
          // Its client went away before the answer: the message was never accepted.
          if (closedSessions.has(session.id)) return callback(new Error('connection closed'));
          const from = session.envelope.mailFrom === false ? '' : session.envelope.mailFrom.address;
          received.push({ envelope: { from, to: session.envelope.rcptTo.map((rcpt) => rcpt.address) }, raw, ...readMessage(raw) });
          wakeAll();
          callback();
        };
        if (!holding) return accept();
        held.push({ session: session.id, accept });
        wakeAll();
      });
    },
  });
  const port = await new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    const listening = server.listen(options.port ?? 0, '127.0.0.1', () => {
      const address = listening.address();
      if (typeof address === 'object' && address) resolve(address.port);
      else reject(new Error('no port'));
    });
  });

  const waitForMessages = async (count: number, timeoutMs = 5000): Promise<ReceivedMail[]> => {
    const deadline = Date.now() + timeoutMs;
    while (received.length < count) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`expected ${count} message(s), received ${received.length}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return received.slice(0, count);
  };

  const waitForHeld = async (count: number, timeoutMs = 5000): Promise<void> => {
    const deadline = Date.now() + timeoutMs;
    while (held.length < count) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`expected ${count} message(s) held, ${held.length} held`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  };

  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    received,
    waitForMessages,
    hold: () => {
      holding = true;
    },
    release: () => {
      holding = false;
      for (const { accept } of held.splice(0)) accept();
    },
    waitForHeld,
    heldOfClosedSessions: () => held.filter(({ session }) => closedSessions.has(session)).length,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
};
