import { z } from 'zod';
import { blankAsAbsent } from '../../blank-as-absent.ts';
import { queryParameters } from '../../query-parameters.ts';
import { unknownParameters } from '../core-query.ts';
import { planningType } from '../../../events/schema/common-schemas.ts';
import { mediaInput } from '../../media-input.ts';
import { coreMediaTexts } from './media-texts.ts';

/**
 * The core SAV and planning inputs, parsed at the edge. Every field's text completes "<field>: …"
 * (see sav-errors.ts): "is required" when absent, else what it must be.
 */
const expecting = (what: string) => ({
  error: (issue: { input?: unknown }) => (issue.input === undefined ? 'is required' : `must be ${what}`),
});

const id = (what: string) => z.number(expecting(what)).int().positive().max(2_147_483_647);
const text = (max: number) =>
  z
    .string(expecting(`a text of 1 to ${max} characters`))
    .trim()
    .min(1)
    .max(max);
const calendarDate = z.iso.date(expecting('a date YYYY-MM-DD'));
const clockTime = z.string(expecting('a time HH:MM')).regex(/^([01]\d|2[0-3]):[0-5]\d$/);
const httpUrl = z.url({ protocol: /^https?$/, ...expecting('an http(s) URL of at most 2048 characters') }).max(2048);
/** URLs (fetched later) or base64 data URLs (stored with the SAV), see media-input.ts. */
const media = (kind: 'image' | 'video') => z.array(mediaInput(kind, coreMediaTexts), expecting('an array of at most 10 URLs or data URLs')).max(10);

const oneOrMoreIds = 'a sale product ID or a non-empty array of at most 100 of them';
const saleProductIds = z.union([id('a sale product ID'), z.array(id('a sale product ID'), expecting(oneOrMoreIds)).min(1).max(100)], expecting(oneOrMoreIds));

/**
 * POST /api/sale-sav/create-for-sale-product. The appointment is booked only when both rdv_date and
 * rdv_time are given (one alone books nothing, as before); its phone and comment go with it.
 */
export const createSavBody = z.object(
  {
    saleProductId: saleProductIds.describe('The sale product, or the products (all of one sale), the SAV is about'),
    data: z.object(
      {
        complaint: text(10_000).describe("The customer's complaint"),
        complaint_name: text(255).describe('The complaint category'),
        sav_type: text(64).describe('The SAV type'),
        rdv_date: blankAsAbsent(calendarDate).describe('The appointment day, with rdv_time'),
        rdv_time: blankAsAbsent(clockTime).describe('The appointment slot, HH:MM, with rdv_date'),
        rdv_phone: blankAsAbsent(z.string(expecting('a text of at most 32 characters')).trim().max(32)).describe('A phone number for the appointment'),
        rdv_comment: blankAsAbsent(z.string(expecting('a text of at most 2000 characters')).trim().max(2000)).describe('A comment on the appointment'),
        videos: blankAsAbsent(media('video')).describe(
          'Videos: http(s) URLs, fetched after the answer, or base64 data URLs (mp4, quicktime, webm) of at most 10 MiB, stored at once',
        ),
        images: blankAsAbsent(media('image')).describe(
          'Images: http(s) URLs, fetched after the answer, or base64 data URLs (jpeg, png, webp, gif, heic, heif, avif) of at most 10 MiB, stored at once',
        ),
      },
      expecting('an object'),
    ),
  },
  { error: () => 'The request body must be a JSON object' },
);
export type CreateSavBody = z.infer<typeof createSavBody>;

/** POST /api/sale-sav/upload-file: all four fields are required. */
export const uploadFileBody = z.object(
  {
    complaint_id: id('a SAV ID (a positive integer)').describe('The SAV the file belongs to'),
    prefix: text(64).describe('The file category'),
    file_url: httpUrl.describe('Where to fetch the file: a public http(s) URL of an image or a video'),
    file_name: text(255).describe('The original file name'),
  },
  { error: () => 'The request body must be a JSON object' },
);
export type UploadFileBody = z.infer<typeof uploadFileBody>;

/** A comma-separated list; a key repeated in the query string counts as one list. */
const commaList = <S extends z.ZodType<unknown, string>>(item: S, max: number, what: string) =>
  z
    .preprocess((value) => (Array.isArray(value) ? value.join(',') : value), z.string(expecting(what)))
    .transform((list) =>
      list
        .split(',')
        .map((entry) => entry.trim())
        .filter((entry) => entry !== ''),
    )
    .pipe(z.array(item).max(max, `must list at most ${max} entries`));

/** GET /api/sale-sav/planning/occupied: which days (see occupied-dates.ts), which plannings, whose booking to leave out. */
export const occupiedQuery = queryParameters(
  {
    date: calendarDate.optional().describe('One day'),
    dates: commaList(calendarDate, 366, 'a comma-separated list of dates YYYY-MM-DD').optional().describe('Several days, comma-separated'),
    start_date: calendarDate.optional().describe('The first day of a range (default: today)'),
    end_date: calendarDate.optional().describe('The last day of a range, at most 366 days (default: 30 days after start_date)'),
    planning_types: commaList(z.enum(planningType.options, expecting('sav or delivery')), 2, 'a comma-separated list of planning types (sav, delivery)')
      .optional()
      .describe('The plannings counted, comma-separated: sav, delivery (default: sav)'),
    complaint: z
      .string(expecting('a SAV ID (a positive integer)'))
      .regex(/^[1-9][0-9]{0,9}$/)
      .transform(Number)
      .optional()
      .meta({ type: 'integer', minimum: 1, maximum: 9_999_999_999 })
      .describe('A SAV being rescheduled: its own booking is not counted'),
  },
  unknownParameters,
);
export type OccupiedQuery = z.infer<typeof occupiedQuery>;

/** GET /api/sav-holidays: no parameter but the opt-in to the holidays' names. */
export const holidaysQuery = queryParameters(
  { labels: z.enum(['true', 'false'], expecting('true or false')).optional().describe('true: each holiday as {date, label} instead of its date alone') },
  unknownParameters,
);

/** A SAV ID in the path, read from plain digits only (`1e3`, `0x10` or `12.0` are refused, not coerced). */
export const savIdParams = z.object({
  id: z
    .string()
    .regex(/^[1-9][0-9]{0,9}$/, 'must be a SAV ID (a positive integer)')
    .transform(Number)
    .pipe(z.number().max(2_147_483_647, 'must be a SAV ID (a positive integer)'))
    .meta({ type: 'integer', minimum: 1, maximum: 2_147_483_647 })
    .describe('The SAV ID'),
});

/** GET /api/sale-sav/{id}/appointment/slots: the period looked at, at most 366 days. */
export const appointmentSlotsQuery = queryParameters(
  {
    start_date: calendarDate.optional().describe('The first day looked at (default: today; days before today are never listed)'),
    end_date: calendarDate.optional().describe('The last day looked at, at most 366 days after start_date (default: 30 days after start_date)'),
  },
  unknownParameters,
);

/**
 * POST /api/sale-sav/{id}/appointment: the slot to book or move to; a phone or comment not given
 * keeps the appointment's own, null clears it.
 */
export const appointmentBody = z.strictObject(
  {
    date: calendarDate.describe('The day, YYYY-MM-DD, in the planning time zone'),
    time: clockTime.describe('The slot, HH:MM, one of the planning slot times'),
    phone: z.string(expecting('a text of at most 32 characters or null')).trim().max(32).nullable().optional().describe('A phone number for the appointment'),
    comment: z.string(expecting('a text of at most 2000 characters or null')).trim().max(2000).nullable().optional().describe('A comment on the appointment'),
  },
  { error: (issue) => (issue.code === 'unrecognized_keys' ? `unknown field(s) ${issue.keys.join(', ')}` : 'The request body must be a JSON object') },
);
export type AppointmentBody = z.infer<typeof appointmentBody>;
