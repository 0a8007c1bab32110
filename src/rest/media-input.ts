import { z } from 'zod';
import { refusedOnSight, type UrlRefusal } from '../files/address-policy.ts';
import { decodeDataUrl, isDataUrl, type DataUrlProblem, type MediaKind } from '../files/data-url.ts';
import type { MediaType } from '../files/media-type.ts';

/**
 * An image or a video given in a request body: the http(s) URL of the file, fetched later by the fetch
 * job, or the file itself as a base64 `data:` URL, decoded and checked here, at the edge. Each API
 * group words the refusals in its own language (MediaTexts).
 */

export type MediaInput = { source: 'url'; url: string } | { source: 'inline'; bytes: Buffer; media: MediaType };

/** The largest file a data URL may carry, decoded; larger files are given by URL (fetched up to 50 MiB). */
export const inlineFileMaxBytes = 10 * 1024 * 1024;

/**
 * The body limit of the routes that take data URLs (1 MiB elsewhere): a few photos of a phone. Such a
 * body is held in memory while it is parsed, about twice its size on the heap (the text, then the
 * strings of the parsed JSON), so the limit stays well under the server's heap (--max-old-space-size).
 */
export const mediaBodyLimitMib = 16;

export type MediaTexts = {
  /** Neither an http(s) URL of at most 2048 characters nor a data URL (or not a text at all). */
  invalid: (kind: MediaKind) => string;
  dataUrl: (problem: DataUrlProblem, kind: MediaKind) => string;
  /** A URL refused on sight (credentials, an internal host): said without the reason, which goes to the log. */
  urlRefused: string;
};

const refusalReason = (refusal: UrlRefusal): string =>
  refusal.code === 'credentials' ? 'credentials in the URL' : `the host ${refusal.host} is an internal address`;

const httpUrl = z.url({ protocol: /^https?$/ }).max(2048);

export const mediaInput = (kind: MediaKind, texts: MediaTexts) =>
  z.string({ error: () => texts.invalid(kind) }).transform((text, ctx): MediaInput => {
    if (isDataUrl(text)) {
      const decoded = decodeDataUrl(text, { kind, maxBytes: inlineFileMaxBytes });
      if (decoded.ok) return { source: 'inline', ...decoded.file };
      ctx.addIssue({ code: 'custom', message: texts.dataUrl(decoded.problem, kind) });
      return z.NEVER;
    }
    if (!httpUrl.safeParse(text).success) {
      ctx.addIssue({ code: 'custom', message: texts.invalid(kind) });
      return z.NEVER;
    }
    const refusal = refusedOnSight(new URL(text));
    if (refusal) {
      ctx.addIssue({ code: 'custom', message: texts.urlRefused, params: { logDetail: { urlRefused: refusalReason(refusal) } } });
      return z.NEVER;
    }
    return { source: 'url', url: text };
  });
