import { z } from 'zod';
import { blankAsAbsent } from '../blank-as-absent.ts';
import { mediaInput } from '../media-input.ts';
import { queryParameters } from '../query-parameters.ts';
import { chatbotMediaTexts } from './media-texts.ts';
import { unknownParameters } from './chatbot-errors.ts';

/**
 * The chatbot API's inputs, parsed at the edge; the same schemas describe the routes in the OpenAPI
 * document. Every field carries a French text completing "Le champ <field> …" (see chatbot-errors.ts):
 * "est requis" when absent, else what it must be, so that a 400 names the field in the chatbot's language.
 */
const expecting = (what: string) => ({
  error: (issue: { input?: unknown }) => (issue.input === undefined ? 'est requis' : `doit être ${what}`),
});

const incrementId = z.string(expecting('une suite de 1 à 20 chiffres')).regex(/^[0-9]{1,20}$/);
const email = z.email(expecting('une adresse e-mail valide')).max(254);
const sku = z.string(expecting('un SKU de 1 à 64 caractères')).min(1).max(64);
const saleProductId = z.number(expecting('un identifiant de produit de commande (entier positif)')).int().positive().max(2_147_483_647);
/** URLs (fetched later) or base64 data URLs (stored with the SAV), see media-input.ts. */
const media = (kind: 'image' | 'video') => z.array(mediaInput(kind, chatbotMediaTexts), expecting('une liste de 10 URL ou data URL au plus')).max(10);

export const saleDetailsParams = z.object({ incrementId: incrementId.describe("L'increment ID de la commande (chiffres)") });

export const customerDetailsParams = z.object({ email: email.describe("L'e-mail du client, quelle que soit la casse") });

export const productParams = z.object({ sku: sku.describe('Le SKU du produit') });

/** The kinds of request the chatbot files; each becomes the SAV's type. */
export const savRequestType = z.enum(
  ['complaint', 'damaged_product', 'missing_part', 'delivery_issue', 'other'],
  expecting('complaint, damaged_product, missing_part, delivery_issue ou other'),
);
export type SavRequestType = z.infer<typeof savRequestType>;

/**
 * Branches of the "exactly one of" rules below, as JSON Schema states them for the document: a body
 * field present; a query parameter given and not blank (a blank one counts as absent).
 */
const present = (name: string) => ({ type: 'object', required: [name], properties: { [name]: {} } });
const given = (name: string) => ({ type: 'object', required: [name], properties: { [name]: { type: 'string', minLength: 1 } } });

/**
 * POST /api/sav. The product is named either by its SKU in the order or by its sale product ID,
 * exactly one of the two. Keys the service does not know are ignored rather than refused: the
 * chatbot's request types may carry more than the service records.
 */
export const savRequestBody = z
  .object(
    {
      increment_id: incrementId.describe("L'increment ID de la commande"),
      email: email.describe("L'e-mail du client de la commande, quelle que soit la casse"),
      request_type: savRequestType.default('complaint').describe('Le type de demande, qui devient le type du SAV'),
      product_sku: sku.optional().describe('Le SKU du produit concerné (une ligne de la commande)'),
      sale_product_id: saleProductId.optional().describe("Ou bien l'identifiant du produit de la commande"),
      complaint_name: z.string(expecting('un texte de 1 à 255 caractères')).trim().min(1).max(255).describe('La catégorie de la réclamation'),
      complaint: z.string(expecting('un texte de 1 à 10 000 caractères')).trim().min(1).max(10_000).describe('Le message du client'),
      photos: media('image')
        .optional()
        .describe(
          'Des photos : URL http(s), récupérées après la réponse, ou data URL base64 (jpeg, png, webp, gif, heic, heif, avif) de 10 Mio au plus, enregistrées aussitôt',
        ),
      videos: media('video')
        .optional()
        .describe('Des vidéos : URL http(s), récupérées après la réponse, ou data URL base64 (mp4, quicktime, webm) de 10 Mio au plus, enregistrées aussitôt'),
    },
    { error: () => 'Le corps de la requête doit être un objet JSON' },
  )
  .refine((body) => (body.product_sku === undefined) !== (body.sale_product_id === undefined), {
    error: 'Indiquez le produit concerné : product_sku ou sale_product_id (un seul des deux)',
  })
  .meta({ oneOf: [present('product_sku'), present('sale_product_id')] });
export type SavRequestBody = z.infer<typeof savRequestBody>;

/** Query values arrive as text: the sale product ID is read as a number. */
const queriedSaleProductId = z.coerce.number(expecting('un identifiant de produit de commande (entier positif)')).int().positive().max(2_147_483_647);

/** GET /api/customer/sav-status: whose SAVs (exactly one of email or increment_id), optionally for one product. */
export const savStatusQuery = queryParameters(
  {
    // A client filling a form sends the fields it leaves empty as `email=`: absent, not malformed.
    email: blankAsAbsent(email).describe("L'e-mail du client"),
    increment_id: blankAsAbsent(incrementId).describe("Ou bien l'increment ID de la commande"),
    product_sku: blankAsAbsent(sku).describe('Restreint aux SAV de ce produit'),
    sale_product_id: blankAsAbsent(queriedSaleProductId).describe('Restreint aux SAV de ce produit de commande'),
  },
  unknownParameters,
)
  .refine((query) => (query.email === undefined) !== (query.increment_id === undefined), {
    error: 'Email ou increment_id requis',
  })
  .meta({
    description: 'Exactement un de email et increment_id (une valeur vide compte comme absente), éventuellement restreint à un produit',
    oneOf: [given('email'), given('increment_id')],
  });
export type SavStatusQuery = z.infer<typeof savStatusQuery>;

const calendarDate = z.iso.date(expecting('une date AAAA-MM-JJ'));
const clockTime = z.string(expecting('une heure HH:MM')).regex(/^([01]\d|2[0-3]):[0-5]\d$/);

/** The SAV ID in the path of the appointment routes, read from plain digits only. */
export const chatbotSavId = z
  .string(expecting('un identifiant de SAV (entier positif)'))
  .regex(/^[1-9][0-9]{0,9}$/, 'doit être un identifiant de SAV (entier positif)')
  .transform(Number)
  .pipe(z.number().max(2_147_483_647, 'doit être un identifiant de SAV (entier positif)'));

/** GET /api/sav/{savId}/appointment/slots: the customer's e-mail (the SAV's or its order's) and the period looked at. */
export const appointmentSlotsQuery = queryParameters(
  {
    email: email.describe("L'e-mail du client du SAV ou de sa commande, quelle que soit la casse"),
    start_date: calendarDate.optional().describe("Le premier jour regardé (par défaut aujourd'hui ; les jours passés ne sont jamais proposés)"),
    end_date: calendarDate.optional().describe('Le dernier jour regardé, 366 jours après start_date au plus (par défaut 30 jours après start_date)'),
  },
  unknownParameters,
);

/** POST /api/sav/{savId}/appointment: the customer's e-mail and the slot; a phone or comment not given keeps the appointment's own. */
export const appointmentBody = z.object(
  {
    email: email.describe("L'e-mail du client du SAV ou de sa commande, quelle que soit la casse"),
    date: calendarDate.describe('Le jour du rendez-vous, AAAA-MM-JJ'),
    time: clockTime.describe("L'heure du créneau, HH:MM, parmi celles proposées"),
    phone: z.string(expecting('un texte de 32 caractères au plus')).trim().max(32).nullable().optional().describe('Un numéro où joindre le client'),
    comment: z
      .string(expecting('un texte de 2000 caractères au plus'))
      .trim()
      .max(2000)
      .nullable()
      .optional()
      .describe("Un commentaire pour l'intervenant (accès, étage...)"),
  },
  { error: () => 'Le corps de la requête doit être un objet JSON' },
);
