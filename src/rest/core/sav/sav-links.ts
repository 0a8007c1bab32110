import type { CreateSavInput } from '../../../events/after-sales/create-sav.ts';

/** The images and videos given with a new SAV: attached as links, the files themselves are not fetched then. */

/** The last segment of the URL's path, decoded, as the link's display name. */
export const nameInUrl = (url: string, fallback: string): string => {
  const last = new URL(url).pathname.split('/').pop() ?? '';
  let name = last;
  try {
    name = decodeURIComponent(last);
  } catch {
    // A malformed escape: the name stays as written.
  }
  return (name.trim() || fallback).slice(0, 255);
};

export const savLinks = (media: { images?: readonly string[]; videos?: readonly string[] }): CreateSavInput['files'] => [
  ...(media.images ?? []).map((url, index) => ({ kind: 'image' as const, category: 'image', sourceUrl: url, fileName: nameInUrl(url, `image-${index + 1}`) })),
  ...(media.videos ?? []).map((url, index) => ({ kind: 'video' as const, category: 'video', sourceUrl: url, fileName: nameInUrl(url, `video-${index + 1}`) })),
];
