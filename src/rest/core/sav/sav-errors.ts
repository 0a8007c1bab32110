import type { z } from 'zod';
import type { Refusal } from '../../../events/decider.ts';
import { isoWeekday } from '../../../events/planning/calendar-date.ts';
import { disclosedReason, type RemoteFileError, type RemoteFileErrorCode } from '../../../files/remote-file-error.ts';
import { acceptedMediaFormats } from '../../../files/sav-files.ts';
import type { UploadTexts } from '../../sav-files/upload-sav-file.ts';
import { unknownParameters } from '../core-query.ts';
import type { SavFileDocument } from '../../../projections/after-sales/sav-document.ts';
import { HttpError } from '../../../http/http-error.ts';

/** The core SAV routes' errors, in the core envelope: refusals and file failures are mapped here, once. */

export const invalidField = (field: string, message: string): HttpError =>
  new HttpError(400, 'invalid_request', field === '' ? message : `${field}: ${message}`);

/** The refuse function of parseInput: the first issue, named by its field. */
export const invalidRequest = (field: string, issue: z.core.$ZodIssue): HttpError => invalidField(field, issue.message);

export const savNotFound = (savId: number): HttpError => new HttpError(404, 'not_found', `No SAV with ID ${savId}`);

/** A SAV file that cannot be downloaded: none by that path, or not stored (yet). */
export const savFileNotStored = (savId: string, fileId: string, file: SavFileDocument | null): HttpError => {
  if (file?.state === 'pending') return new HttpError(404, 'not_found', `File ${fileId} of SAV ${savId} is not stored yet: its fetch is pending`);
  if (file?.state === 'failed') return new HttpError(404, 'not_found', `File ${fileId} of SAV ${savId} could not be fetched: ${file.lastError ?? 'given up'}`);
  return new HttpError(404, 'not_found', `No file ${fileId} on SAV ${savId}`);
};

export const saleProductsNotFound = (ids: readonly number[]): HttpError =>
  new HttpError(404, 'not_found', ids.length === 1 ? `No sale product with ID ${ids[0]}` : `No sale products with IDs ${ids.join(', ')}`);

const weekdays = ['Mondays', 'Tuesdays', 'Wednesdays', 'Thursdays', 'Fridays', 'Saturdays', 'Sundays'];
const weekdayOf = (date: string): string => weekdays[isoWeekday(date) - 1] ?? date;

/**
 * A booking the planning refused (planning-day decider): the requested slot cannot be had, 409. Any
 * other refusal of a creation whose products were checked is a fault, thrown as such (500).
 */
export const appointmentRefused = (refusal: Refusal, slot: { date: string; time: string }): HttpError => {
  const { date, time } = slot;
  switch (refusal.code) {
    case 'slot_full':
      return new HttpError(409, 'slot_full', `The appointment slot of ${date} at ${time} is full; choose another slot`);
    case 'holiday':
      return new HttpError(409, 'holiday', `${date} is a holiday: no appointment is given that day`);
    case 'closed_day':
      return new HttpError(409, 'closed_day', `No appointment is given on ${weekdayOf(date)} (${date})`);
    case 'unknown_slot': {
      const slotTimes = refusal.details.slotTimes;
      const offered = Array.isArray(slotTimes) ? ` (slots: ${slotTimes.join(', ')})` : '';
      return new HttpError(409, 'unknown_slot', `There is no appointment slot at ${time}${offered}`);
    }
    case 'in_the_past':
      return new HttpError(409, 'in_the_past', `${date} is in the past: choose a later day`);
    default:
      throw new Error(`SAV creation refused: ${refusal.code} (${refusal.message})`);
  }
};

const remoteFileAnswers: Readonly<Record<RemoteFileErrorCode, readonly [number, string]>> = {
  url_refused: [400, 'invalid_request'],
  unresolvable: [400, 'invalid_request'],
  too_large: [413, 'file_too_large'],
  unsupported_type: [415, 'unsupported_media_type'],
  remote_failed: [502, 'remote_failure'],
  timeout: [504, 'remote_timeout'],
};

/** Why the file at `file_url` was not kept, without the reason when it would map the network; the message names the field the client gave. */
export const remoteFileRefused = (error: RemoteFileError): HttpError => {
  const [status, code] = remoteFileAnswers[error.code];
  return new HttpError(status, code, `file_url: ${disclosedReason(error.code, error.message)}`);
};

/**
 * A status change refused by the SAV (sav-transitions.ts): 404 for an unknown SAV, 409 when its status
 * does not allow the change, with that status as `sav_status`. Any other refusal is a fault (500).
 */
export const savChangeRefused = (savId: number, refusal: Refusal): HttpError => {
  switch (refusal.code) {
    case 'unknown_sav':
      return savNotFound(savId);
    case 'sav_status_conflict':
      return new HttpError(409, refusal.code, refusal.message, { sav_status: refusal.details.status });
    default:
      throw new Error(`SAV status change refused: ${refusal.code} (${refusal.message})`);
  }
};

/** The SAV file upload's refusals (POST /api/sale-sav/{id}/files). */
export const coreUploadTexts: UploadTexts = {
  invalid: invalidRequest,
  unknownParameters,
  savNotFound,
  notMedia: () => new HttpError(415, 'unsupported_media_type', `the file is not an accepted image or video (${acceptedMediaFormats})`),
  notAsDeclared: (declared, found) => new HttpError(415, 'unsupported_media_type', `the file was declared ${declared} but is ${found}`),
};
