/**
 * Tells an image or a video by its first bytes (magic numbers), whatever its name or announced
 * Content-Type: only these formats are kept. Anything else, audio in a video container included, is
 * not a media file here.
 */

export type MediaType = { kind: 'image' | 'video'; contentType: string; extension: string };

const image = (contentType: string, extension: string): MediaType => ({ kind: 'image', contentType, extension });
const video = (contentType: string, extension: string): MediaType => ({ kind: 'video', contentType, extension });

const startsWith = (bytes: Uint8Array, signature: readonly number[], offset = 0): boolean =>
  bytes.length >= offset + signature.length && signature.every((byte, index) => bytes[offset + index] === byte);

const ascii = (bytes: Uint8Array, from: number, to: number): string => Buffer.from(bytes.subarray(from, to)).toString('latin1');

/** ISO base media files (`....ftyp<brand>`): the major brand says what the file holds. */
const ftypBrands: ReadonlyMap<string, MediaType> = new Map([
  ...['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis'].map((brand) => [brand, image('image/heic', 'heic')] as const),
  ...['mif1', 'msf1'].map((brand) => [brand, image('image/heif', 'heif')] as const),
  ...['avif', 'avis'].map((brand) => [brand, image('image/avif', 'avif')] as const),
  ['qt  ', video('video/quicktime', 'mov')],
  ...['isom', 'iso2', 'iso4', 'iso5', 'iso6', 'mp41', 'mp42', 'avc1', 'dash', 'MSNV', 'NDAS', 'M4V ', 'M4VH', 'M4VP', 'f4v '].map(
    (brand) => [brand, video('video/mp4', 'mp4')] as const,
  ),
  ...['3gp4', '3gp5', '3gp6', '3gp7', '3ge6', '3ge7', '3gg6'].map((brand) => [brand, video('video/3gpp', '3gp')] as const),
  ...['3g2a', '3g2b', '3g2c'].map((brand) => [brand, video('video/3gpp2', '3g2')] as const),
]);

/** Old QuickTime files open on a movie atom instead of `ftyp`. */
const quickTimeAtoms = new Set(['moov', 'mdat', 'wide']);

const sniffIsoMedia = (bytes: Uint8Array): MediaType | null => {
  const box = ascii(bytes, 4, 8);
  if (box === 'ftyp') return ftypBrands.get(ascii(bytes, 8, 12)) ?? null;
  return quickTimeAtoms.has(box) ? video('video/quicktime', 'mov') : null;
};

/** Matroska and WebM share the EBML header; its DocType, in the first bytes, tells them apart. */
const sniffEbml = (bytes: Uint8Array): MediaType | null => {
  const header = ascii(bytes, 0, Math.min(bytes.length, 64));
  if (header.includes('webm')) return video('video/webm', 'webm');
  if (header.includes('matroska')) return video('video/x-matroska', 'mkv');
  return null;
};

/** RIFF containers: WebP images and AVI videos (WAV audio is refused). */
const sniffRiff = (bytes: Uint8Array): MediaType | null => {
  const form = ascii(bytes, 8, 12);
  if (form === 'WEBP') return image('image/webp', 'webp');
  if (form === 'AVI ') return video('video/x-msvideo', 'avi');
  return null;
};

/** The media type of a file from its first bytes (a few dozen suffice), or null when it is not an accepted image or video. */
export const sniffMediaType = (bytes: Uint8Array): MediaType | null => {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return image('image/jpeg', 'jpg');
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return image('image/png', 'png');
  if (ascii(bytes, 0, 6) === 'GIF87a' || ascii(bytes, 0, 6) === 'GIF89a') return image('image/gif', 'gif');
  if (ascii(bytes, 0, 4) === 'RIFF') return sniffRiff(bytes);
  if (startsWith(bytes, [0x1a, 0x45, 0xdf, 0xa3])) return sniffEbml(bytes);
  if (bytes.length >= 12) return sniffIsoMedia(bytes);
  return null;
};
