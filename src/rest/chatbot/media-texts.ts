import { inlineMediaTypes, type DataUrlProblem, type MediaKind } from '../../files/data-url.ts';
import type { MediaTexts } from '../media-input.ts';

/** How the chatbot API words a refused photo or video, in French; each text completes "Le champ <field> …". */

const types = (kind: MediaKind): string => inlineMediaTypes[kind].join(', ');
const noun: Record<MediaKind, string> = { image: 'une photo', video: 'une vidéo' };
const mebioctets = (bytes: number): string => `${bytes / 1024 / 1024} Mio`;

const dataUrl = (problem: DataUrlProblem, kind: MediaKind): string => {
  switch (problem.code) {
    case 'not_base64':
      return 'doit être une data URL en base64 (data:<type>;base64,<données>)';
    case 'unsupported_type':
      return `est une data URL de type ${problem.declared || 'inconnu'} ; ${noun[kind]} doit être de type ${types(kind)}`;
    case 'empty':
      return 'est une data URL vide';
    case 'too_large':
      return `dépasse ${mebioctets(problem.maxBytes)} une fois décodé ; envoyez un fichier plus lourd par son URL`;
    case 'content_mismatch':
      return `est annoncé comme ${problem.declared} mais son contenu est ${problem.actual ?? "autre chose qu'une image ou une vidéo acceptée"}`;
  }
};

export const chatbotMediaTexts: MediaTexts = {
  invalid: (kind) => `doit être l'URL http(s) d'${noun[kind]} (2048 caractères au plus) ou ${noun[kind]} en data URL base64 (${types(kind)})`,
  dataUrl,
  urlRefused: "n'est pas une URL de fichier autorisée",
};
