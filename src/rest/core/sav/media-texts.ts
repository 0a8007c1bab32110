import { inlineMediaTypes, type DataUrlProblem, type MediaKind } from '../../../files/data-url.ts';
import { urlNotAllowed } from '../../../files/remote-file-error.ts';
import type { MediaTexts } from '../../media-input.ts';

/** How the core API words a refused image or video of a SAV request; each text completes "<field>: …". */

const types = (kind: MediaKind): string => inlineMediaTypes[kind].join(', ');
const article: Record<MediaKind, string> = { image: 'an image', video: 'a video' };
const mebibytes = (bytes: number): string => `${bytes / 1024 / 1024} MiB`;

const dataUrl = (problem: DataUrlProblem, kind: MediaKind): string => {
  switch (problem.code) {
    case 'not_base64':
      return 'must be a base64 data URL (data:<type>;base64,<data>)';
    case 'unsupported_type':
      return `is a data URL of ${problem.declared || 'no type'}; ${article[kind]} must be ${types(kind)}`;
    case 'empty':
      return 'is an empty data URL';
    case 'too_large':
      return `is larger than ${mebibytes(problem.maxBytes)} once decoded; give a larger file by its URL`;
    case 'content_mismatch':
      return `is declared ${problem.declared} but its content is ${problem.actual ?? 'not an accepted image or video'}`;
  }
};

export const coreMediaTexts: MediaTexts = {
  invalid: (kind) => `must be an http(s) URL of at most 2048 characters, or a base64 data URL of ${article[kind]} (${types(kind)})`,
  dataUrl,
  urlRefused: urlNotAllowed,
};
