import { describe, expect, it } from 'vitest';
import { decodeDataUrl, isDataUrl } from '../../src/files/data-url.ts';
import { jpeg, mp4, png, text } from './file-server.ts';

const dataUrl = (type: string, content: Buffer): string => `data:${type};base64,${content.toString('base64')}`;
const isoMedia = (brand: string) =>
  Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from(`ftyp${brand}`, 'latin1'), Buffer.alloc(4), Buffer.from(brand, 'latin1')]);
const image = { kind: 'image' as const, maxBytes: 1024 };
const video = { kind: 'video' as const, maxBytes: 1024 };

describe('decodeDataUrl', () => {
  it.each([
    ['a JPEG declared image/jpeg', dataUrl('image/jpeg', jpeg), image, 'image/jpeg', jpeg],
    ['a JPEG declared image/jpg, as some clients write it', dataUrl('image/jpg', jpeg), image, 'image/jpeg', jpeg],
    ['a PNG in upper case, with a parameter', `DATA:IMAGE/PNG;name=photo.png;base64,${png.toString('base64')}`, image, 'image/png', png],
    ['a HEIC photo', dataUrl('image/heic', isoMedia('heic')), image, 'image/heic', isoMedia('heic')],
    ['a HEIF file declared image/heic (one family)', dataUrl('image/heic', isoMedia('mif1')), image, 'image/heif', isoMedia('mif1')],
    ['an MP4 video', dataUrl('video/mp4', mp4), video, 'video/mp4', mp4],
    ['a QuickTime movie', dataUrl('video/quicktime', isoMedia('qt  ')), video, 'video/quicktime', isoMedia('qt  ')],
  ])('when it holds %s, it decodes to the bytes, typed by their content', (_case, url, rules, contentType, bytes) => {
    const decoded = decodeDataUrl(url, rules);
    expect(decoded).toEqual({ ok: true, file: { bytes, media: expect.objectContaining({ contentType }) } });
  });

  it.each([
    ['it is not base64', `data:image/jpeg,${encodeURIComponent('abc')}`, image, { code: 'not_base64' }],
    ['its base64 has characters outside the alphabet', 'data:image/jpeg;base64,/9j/4AAQ$kZJRg==', image, { code: 'not_base64' }],
    ['its base64 has a dangling character', 'data:image/jpeg;base64,/9j/4', image, { code: 'not_base64' }],
    ['it has no comma', 'data:image/jpeg;base64', image, { code: 'not_base64' }],
    ['it is empty', 'data:image/jpeg;base64,', image, { code: 'empty' }],
    ['it declares an SVG image', dataUrl('image/svg+xml', text), image, { code: 'unsupported_type', declared: 'image/svg+xml' }],
    ['it declares no type', `data:;base64,${jpeg.toString('base64')}`, image, { code: 'unsupported_type', declared: '' }],
    ['it declares a video among images', dataUrl('video/mp4', mp4), image, { code: 'unsupported_type', declared: 'video/mp4' }],
    ['it declares an image among videos', dataUrl('image/jpeg', jpeg), video, { code: 'unsupported_type', declared: 'image/jpeg' }],
    ['it declares a PNG but holds a JPEG', dataUrl('image/png', jpeg), image, { code: 'content_mismatch', declared: 'image/png', actual: 'image/jpeg' }],
    ['it declares a JPEG but holds text', dataUrl('image/jpeg', text), image, { code: 'content_mismatch', declared: 'image/jpeg', actual: null }],
    [
      'it declares an MP4 but holds a QuickTime movie',
      dataUrl('video/mp4', isoMedia('qt  ')),
      video,
      { code: 'content_mismatch', declared: 'video/mp4', actual: 'video/quicktime' },
    ],
  ])('when %s, it is refused, saying why', (_case, url, rules, problem) => {
    expect(decodeDataUrl(url, rules)).toEqual({ ok: false, problem });
  });

  it('when the decoded file would exceed the limit, it is refused from the length alone; one byte under, it is accepted', () => {
    const exactly = Buffer.concat([jpeg, Buffer.alloc(1024 - jpeg.length)]);
    expect(decodeDataUrl(dataUrl('image/jpeg', exactly), image)).toMatchObject({ ok: true });
    expect(decodeDataUrl(dataUrl('image/jpeg', Buffer.concat([exactly, Buffer.alloc(1)])), image)).toEqual({
      ok: false,
      problem: { code: 'too_large', maxBytes: 1024 },
    });
  });

  it('when a text starts with data: in any case it is a data URL; an http(s) URL is not', () => {
    expect(['data:image/png;base64,', 'DATA:x', 'https://cdn.example.org/data:x'].map(isDataUrl)).toEqual([true, true, false]);
  });
});
