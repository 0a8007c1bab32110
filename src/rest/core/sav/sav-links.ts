import type { CreateSavInput } from '../../../events/after-sales/create-sav.ts';
import type { MediaInput } from '../../media-input.ts';

/**
 * The images and videos given with a new SAV: a URL is attached as a link, fetched after the answer by
 * the fetch job; a data URL's file is stored with the SAV.
 */

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

/** One list of the request: its files' kind (as given) and category, e.g. the chatbot's photos. */
export type GivenMedia = { kind: 'image' | 'video'; category: string; items?: readonly MediaInput[] };

export const savFiles = (lists: readonly GivenMedia[]): CreateSavInput['files'] =>
  lists.flatMap(({ kind, category, items = [] }) =>
    items.map((item, index) => {
      const fallback = `${category}-${index + 1}`;
      if (item.source === 'url') return { kind, category, sourceUrl: item.url, fileName: nameInUrl(item.url, fallback) };
      const { bytes, media } = item;
      const content = { bytes, contentType: media.contentType, extension: media.extension };
      return { kind: media.kind, category, sourceUrl: null, fileName: `${fallback}.${media.extension}`, content };
    }),
  );

/** Whether some file is to be fetched: the fetch job is then asked for a run. */
export const namesFilesByUrl = (files: CreateSavInput['files']): boolean => files.some((file) => file.sourceUrl !== null);
