import { z } from 'zod';
import type { PlatformConfig } from '../config/config.ts';
import { platformStatus, type PlatformStatus, type TransmissionKind } from '../events/e-invoicing/events.ts';

/**
 * The approved platform the seller chose, over HTTP, configured by its URL and credentials
 * (PLATFORM_URL, and PLATFORM_TOKEN for a bearer token or PLATFORM_BASIC_AUTH for `user:password`).
 * Every platform has its own API; this adapter speaks the common shape of theirs, which
 * docs/production.md describes and says how to check against the chosen one:
 *
 * - `POST <url>/documents`, the document's bytes as the body (the Factur-X PDF of an e-invoice, the XML
 *   of a day's e-reporting), its identifier in `Idempotency-Key`: the same at every attempt, so that a
 *   platform given it twice (a resend after a crash) keeps it once. A 2xx, or a 409 saying it already
 *   has it, is sent; the answer may name the platform's reference (`id`) and a first status.
 * - `GET <url>/documents/<identifier>`: the document's status in its lifecycle, and a reason.
 */

export type PlatformSettings = Pick<PlatformConfig, 'url' | 'credentials'> & { timeoutMs?: number };

export type PlatformDocumentFile = { documentId: string; kind: TransmissionKind; fileName: string; contentType: string; body: Buffer };

export type TransmitOutcome =
  { ok: true; status: number; platformReference: string | null; platformStatus: PlatformStatus | null } | { ok: false; status: number | null; error: string };

export type StatusOutcome = { ok: true; status: PlatformStatus; reason: string | null } | { ok: true; status: null } | { ok: false; error: string };

export type PlatformAdapter = {
  transmit: (file: PlatformDocumentFile) => Promise<TransmitOutcome>;
  statusOf: (documentId: string) => Promise<StatusOutcome>;
};

const depositAnswer = z.object({ id: z.string().max(200).optional(), status: platformStatus.optional() }).loose();
const statusAnswer = z.object({ status: platformStatus, reason: z.string().max(2000).nullish() }).loose();

/** Most bytes of an answer read: the platform's answers are a few hundred bytes of JSON. */
const maxAnswerBytes = 64 * 1024;

class AnswerTooLargeError extends Error {
  constructor() {
    super(`the answer exceeds ${maxAnswerBytes / 1024} KiB`);
  }
}

/**
 * An answer's JSON, read within `maxAnswerBytes` (counted as it arrives, whatever Content-Length says,
 * the rest left unread and the connection dropped): a platform answering without end cannot fill the
 * memory. Not JSON, or empty: `{}`.
 */
const jsonOf = async (answer: Response): Promise<unknown> => {
  if (Number(answer.headers.get('content-length')) > maxAnswerBytes) {
    await answer.body?.cancel().catch(() => undefined);
    throw new AnswerTooLargeError();
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = answer.body?.getReader();
  for (let chunk = await reader?.read(); chunk && !chunk.done; chunk = await reader!.read()) {
    size += chunk.value.byteLength;
    if (size > maxAnswerBytes) {
      await reader!.cancel().catch(() => undefined);
      throw new AnswerTooLargeError();
    }
    chunks.push(chunk.value);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    return text === '' ? {} : JSON.parse(text);
  } catch {
    return {};
  }
};

const reasonOf = (error: unknown): string => {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  if (error instanceof Error && error.name === 'TimeoutError') return 'the platform did not answer in time';
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
};

export const createPlatformAdapter = (settings: PlatformSettings): PlatformAdapter => {
  const base = settings.url.replace(/\/+$/, '');
  const authorization =
    settings.credentials.kind === 'bearer'
      ? `Bearer ${settings.credentials.token}`
      : `Basic ${Buffer.from(`${settings.credentials.user}:${settings.credentials.password}`).toString('base64')}`;
  const timeout = () => AbortSignal.timeout(settings.timeoutMs ?? 10_000);

  return {
    transmit: async (file) => {
      let answer: Response;
      try {
        answer = await fetch(`${base}/documents`, {
          method: 'POST',
          headers: {
            authorization,
            'content-type': file.contentType,
            'content-disposition': `attachment; filename="${file.fileName}"`,
            'idempotency-key': file.documentId,
            'x-document-kind': file.kind,
          },
          body: new Uint8Array(file.body),
          signal: timeout(),
        });
      } catch (error) {
        return { ok: false, status: null, error: `not sent: ${reasonOf(error)}` };
      }
      // An answer unread (too large, broken off) leaves what the status says: sent or refused, without details.
      const body = await jsonOf(answer).catch(() => ({}));
      if (answer.ok || answer.status === 409) {
        const parsed = depositAnswer.safeParse(body);
        return {
          ok: true,
          status: answer.status,
          platformReference: (parsed.success && parsed.data.id) || null,
          platformStatus: (parsed.success && parsed.data.status) || null,
        };
      }
      const detail = typeof body === 'object' && body !== null && 'error' in body ? `: ${String((body as { error: unknown }).error).slice(0, 500)}` : '';
      return { ok: false, status: answer.status, error: `refused by the platform (HTTP ${answer.status})${detail}` };
    },

    statusOf: async (documentId) => {
      try {
        const answer = await fetch(`${base}/documents/${encodeURIComponent(documentId)}`, { headers: { authorization }, signal: timeout() });
        const body = await jsonOf(answer);
        if (!answer.ok) return { ok: false, error: `status not read (HTTP ${answer.status})` };
        const parsed = statusAnswer.safeParse(body);
        return parsed.success ? { ok: true, status: parsed.data.status, reason: parsed.data.reason ?? null } : { ok: true, status: null };
      } catch (error) {
        return { ok: false, error: `status not read: ${reasonOf(error)}` };
      }
    },
  };
};
