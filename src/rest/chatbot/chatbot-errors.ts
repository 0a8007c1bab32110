import type { z } from 'zod';
import type { SavFileDocument } from '../../projections/after-sales/sav-document.ts';
import { acceptedMediaFormats } from '../../files/sav-files.ts';
import { HttpError } from '../../http/http-error.ts';
import type { UploadTexts } from '../sav-files/upload-sav-file.ts';

/**
 * The chatbot API's errors. Their texts are shown to customers as they are, so they are French and
 * name what the customer gave (an increment ID, an e-mail, a SKU), never an internal detail.
 */

/** Missing, unknown, revoked or another group's token: one answer for all, so a caller learns nothing. */
export const chatbotUnauthorized = (): HttpError => new HttpError(401, 'Non autorisé', "Token d'API manquant ou invalide");

/** Added to the 401 of a chatbot call whose token came as `Authorization: Bearer`. */
export const chatbotMisplacedToken = "L'API du chatbot attend le token dans l'en-tête X-API-Token (X-API-Token: <token>), et non dans Authorization: Bearer";

/** The first zod issue: a field's text completes "Le champ <field> …"; a rule across fields is a whole sentence. */
export const invalidParameters = (field: string, issue: z.core.$ZodIssue): HttpError =>
  new HttpError(400, 'Paramètres invalides', field === '' ? issue.message : `Le champ ${field} ${issue.message}`);

/** The message refusing query parameters a route does not know (see query-parameters.ts). */
export const unknownParameters = (keys: readonly string[], known: readonly string[]): string =>
  known.length === 0
    ? `Paramètre(s) inconnu(s) : ${keys.join(', ')} ; cette opération n'en prend aucun`
    : `Paramètre(s) inconnu(s) : ${keys.join(', ')} ; les paramètres sont ${known.join(', ')}`;

/** A query parameter given to a chatbot route that takes none. */
export const invalidQuery = (keys: readonly string[]): HttpError => new HttpError(400, 'Paramètres invalides', unknownParameters(keys, []));

export const orderNotFound = (incrementId: string): HttpError =>
  new HttpError(404, 'Commande non trouvée', `Aucune commande trouvée avec l'increment_id ${incrementId}`);

export const customerNotFound = (email: string): HttpError => new HttpError(404, 'Client non trouvé', `Aucun client trouvé avec l'email ${email}`);

export const productNotFound = (sku: string): HttpError => new HttpError(404, 'Produit non trouvé', `Aucun produit trouvé avec le SKU ${sku}`);

/** `product` as the customer named it: "le produit LAMP-ARC-BLK" or "le produit de commande 12". */
export const productNotInOrder = (product: string, incrementId: string): HttpError =>
  new HttpError(404, 'Produit non trouvé', `La commande ${incrementId} ne contient pas ${product}`);

/** A SAV file that cannot be downloaded: none by that path, or not stored (yet). */
export const savFileNotStored = (savId: string, fileId: string, file: SavFileDocument | null): HttpError => {
  if (file?.state === 'pending')
    return new HttpError(404, 'Fichier non trouvé', `Le fichier ${fileId} du SAV ${savId} n'est pas encore enregistré : il reste à récupérer`);
  if (file?.state === 'failed') return new HttpError(404, 'Fichier non trouvé', `Le fichier ${fileId} du SAV ${savId} n'a pas pu être récupéré`);
  return new HttpError(404, 'Fichier non trouvé', `Aucun fichier ${fileId} pour le SAV ${savId}`);
};

/**
 * No order of this increment ID has this customer's e-mail: either the order does not exist or its
 * customer is another. One answer for both, so that a caller cannot tell which increment IDs exist by
 * trying them with any e-mail.
 */
export const noOrderForEmail = (incrementId: string): HttpError =>
  new HttpError(404, 'Commande non trouvée', `Aucune commande trouvée avec l'increment_id ${incrementId} pour cet email`);

export const savNotFound = (savId: number): HttpError => new HttpError(404, 'SAV non trouvé', `Aucun SAV avec l'identifiant ${savId}`);

/** The SAV file upload's refusals (POST /api/sav/{savId}/files), in French. */
export const chatbotUploadTexts: UploadTexts = {
  invalid: invalidParameters,
  unknownParameters,
  savNotFound,
  notMedia: () => new HttpError(415, 'Type de fichier non pris en charge', `Le fichier n'est pas une image ou une vidéo acceptée (${acceptedMediaFormats})`),
  notAsDeclared: (declared, found) =>
    new HttpError(415, 'Type de fichier non pris en charge', `Le fichier a été déclaré ${declared} mais c'est un fichier ${found}`),
};
