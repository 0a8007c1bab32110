import { sniffMediaType, type MediaType } from './media-type.ts';

/**
 * Images and videos sent inside a JSON body as `data:` URLs (RFC 2397), base64 only: the declared
 * type must be one of the accepted ones for the list the file was given in, the decoded size within
 * the limit, and the content's first bytes (magic numbers) must say the same type as the declaration.
 */

export type MediaKind = MediaType['kind'];

/** What may come inline. Fewer than a fetch accepts: the formats phones and browsers produce. */
export const inlineMediaTypes: Readonly<Record<MediaKind, readonly string[]>> = {
  image: ['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/heic', 'image/heif', 'image/avif'],
  video: ['video/mp4', 'video/quicktime', 'video/webm'],
};

/** Names clients write for the accepted types. */
const aliases: Readonly<Record<string, string>> = { 'image/jpg': 'image/jpeg', 'image/pjpeg': 'image/jpeg' };

/** HEIC is HEIF holding HEVC; a file may open on either brand whichever its writer declared. */
const sameFamily = (declared: string, actual: string): boolean =>
  declared === actual || (['image/heic', 'image/heif'].includes(declared) && ['image/heic', 'image/heif'].includes(actual));

export type DataUrlProblem =
  | { code: 'not_base64' }
  | { code: 'unsupported_type'; declared: string }
  | { code: 'empty' }
  | { code: 'too_large'; maxBytes: number }
  | { code: 'content_mismatch'; declared: string; actual: string | null };

export type InlineMedia = { bytes: Buffer; media: MediaType };

export const isDataUrl = (text: string): boolean => /^data:/i.test(text);

const header = /^data:([^,;]*)((?:;[^,;]*)*),/i;
const base64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** The decoded size of a base64 text, read from its length: nothing is decoded to refuse an oversized file. */
const decodedLength = (text: string): number => Math.floor((text.length * 3) / 4) - (text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0);

/** Decodes a data URL given for a file of `kind`, or says what is wrong with it. */
export const decodeDataUrl = (
  text: string,
  rules: { kind: MediaKind; maxBytes: number },
): { ok: true; file: InlineMedia } | { ok: false; problem: DataUrlProblem } => {
  // The header is short: a body without a comma near its start is not scanned to its end.
  const match = header.exec(text.slice(0, 256));
  const parameters = (match?.[2] ?? '').toLowerCase().split(';');
  if (!match || !parameters.includes('base64')) return { ok: false, problem: { code: 'not_base64' } };
  const written = (match[1] ?? '').trim().toLowerCase();
  const declared = aliases[written] ?? written;
  if (!inlineMediaTypes[rules.kind].includes(declared)) return { ok: false, problem: { code: 'unsupported_type', declared: written } };
  const payload = text.slice(match[0].length);
  if (!base64.test(payload) || payload.length % 4 === 1) return { ok: false, problem: { code: 'not_base64' } };
  if (payload.length === 0) return { ok: false, problem: { code: 'empty' } };
  if (decodedLength(payload) > rules.maxBytes) return { ok: false, problem: { code: 'too_large', maxBytes: rules.maxBytes } };
  const bytes = Buffer.from(payload, 'base64');
  const media = sniffMediaType(bytes.subarray(0, 512));
  if (!media || !sameFamily(declared, media.contentType)) {
    return { ok: false, problem: { code: 'content_mismatch', declared, actual: media?.contentType ?? null } };
  }
  return { ok: true, file: { bytes, media } };
};
