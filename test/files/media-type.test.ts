import { describe, expect, it } from 'vitest';
import { sniffMediaType } from '../../src/files/media-type.ts';
import { jpeg, mp4, png, text } from './file-server.ts';

const bytes = (...parts: (string | number[])[]): Buffer =>
  Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'latin1') : Buffer.from(part))));
const isoMedia = (brand: string) => bytes([0, 0, 0, 0x18], 'ftyp', brand, [0, 0, 0, 0], brand);

describe('sniffMediaType', () => {
  it.each([
    ['a JPEG', jpeg, { kind: 'image', contentType: 'image/jpeg', extension: 'jpg' }],
    ['a PNG', png, { kind: 'image', contentType: 'image/png', extension: 'png' }],
    ['a GIF', bytes('GIF89a', [1, 0, 1, 0]), { kind: 'image', contentType: 'image/gif', extension: 'gif' }],
    ['a WebP', bytes('RIFF', [0x24, 0, 0, 0], 'WEBPVP8 '), { kind: 'image', contentType: 'image/webp', extension: 'webp' }],
    ['a HEIC photo', isoMedia('heic'), { kind: 'image', contentType: 'image/heic', extension: 'heic' }],
    ['an AVIF image', isoMedia('avif'), { kind: 'image', contentType: 'image/avif', extension: 'avif' }],
    ['an MP4', mp4, { kind: 'video', contentType: 'video/mp4', extension: 'mp4' }],
    ['a QuickTime movie', isoMedia('qt  '), { kind: 'video', contentType: 'video/quicktime', extension: 'mov' }],
    ['an old QuickTime movie', bytes([0, 0, 0, 8], 'wide', [0, 0, 0, 0]), { kind: 'video', contentType: 'video/quicktime', extension: 'mov' }],
    ['a 3GP video', isoMedia('3gp5'), { kind: 'video', contentType: 'video/3gpp', extension: '3gp' }],
    [
      'a WebM',
      bytes([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01, 0x42, 0x82, 0x84], 'webm'),
      { kind: 'video', contentType: 'video/webm', extension: 'webm' },
    ],
    [
      'a Matroska video',
      bytes([0x1a, 0x45, 0xdf, 0xa3, 0xa3, 0x42, 0x82, 0x88], 'matroska'),
      { kind: 'video', contentType: 'video/x-matroska', extension: 'mkv' },
    ],
    ['an AVI', bytes('RIFF', [0x24, 0, 0, 0], 'AVI LIST'), { kind: 'video', contentType: 'video/x-msvideo', extension: 'avi' }],
  ])('when the content is %s, it is recognised', (_case, content, expected) => {
    expect(sniffMediaType(content)).toEqual(expected);
  });

  it.each([
    ['text', text],
    ['a PDF', bytes('%PDF-1.7\n%âãÏÓ\n1 0 obj')],
    ['an HTML page', bytes('<!doctype html><html><body>')],
    ['an M4A audio file', isoMedia('M4A ')],
    ['a WAV audio file', bytes('RIFF', [0x24, 0, 0, 0], 'WAVEfmt ')],
    ['an EBML file of another kind', bytes([0x1a, 0x45, 0xdf, 0xa3, 0x80, 0x42, 0x82, 0x84], 'xxxx')],
    ['a ZIP archive', bytes('PK', [3, 4, 20, 0, 0, 0, 8, 0, 0, 0])],
    ['nothing', Buffer.alloc(0)],
    ['three bytes of a JPEG marker only', Buffer.from([0xff, 0xd8])],
  ])('when the content is %s, it is not an accepted media file', (_case, content) => {
    expect(sniffMediaType(content)).toBeNull();
  });
});
