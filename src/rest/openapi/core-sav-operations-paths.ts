import { z } from 'zod';
import { RemoteFileError } from '../../files/remote-file-error.ts';
import { Refusal } from '../../events/decider.ts';
import { acceptedMediaFormats } from '../../files/sav-files.ts';
import {
  appointmentRefused,
  coreUploadTexts,
  invalidField,
  invalidRequest,
  remoteFileRefused,
  saleProductsNotFound,
  savFileNotStored,
  savNotFound,
} from '../core/sav/sav-errors.ts';
import { HttpError } from '../../http/http-error.ts';
import { bodyErrorTexts } from '../middleware/error-handler.ts';
import { savFileUploadMaxBytes } from '../request-body.ts';
import { savFileUploadQuery } from '../sav-files/upload-sav-file.ts';
import { createSavBody, holidaysQuery, occupiedQuery, uploadFileBody } from '../core/sav/schemas.ts';
import { mediaBodyLimitMib } from '../media-input.ts';
import { coreBase, coreBodyFailures, coreCommon, failure, refusalOf, unknownQueryParameter } from './core-failures.ts';
import { holidaysExample, occupiedExample } from './core-examples.ts';
import { coreFileStored, coreFileUploaded, coreHolidays, corePlanningOccupied, coreSavCreated } from './core-responses.ts';
import type { RouteDoc } from './document.ts';

/** The core SAV operations and the SAV planning (core/sav/routes.ts), the status changes aside (core-sav-paths.ts). */

export const coreSavOperationsComponents = { CoreSavCreated: coreSavCreated, CorePlanningOccupied: corePlanningOccupied };

const base = { ...coreBase, tags: ['core-sav'] };

const remote = (code: ConstructorParameters<typeof RemoteFileError>[0], message: string) => remoteFileRefused(new RemoteFileError(code, message));

export const coreSavOperationsRouteDocs = (): RouteDoc[] => [
  {
    ...base,
    method: 'post',
    path: '/api/sale-sav/create-for-sale-product',
    operationId: 'createSavForSaleProduct',
    summary: 'Opens a SAV on products of one sale, booking its appointment when asked',
    description:
      'The appointment is booked only when both rdv_date and rdv_time are given; a slot that cannot be had refuses the whole request (409): no SAV, no booking. Images and videos sent as data URLs are stored at once, those given by URL fetched after the answer.',
    body: createSavBody,
    bodyExample: {
      saleProductId: 5,
      data: {
        complaint: 'La plaque ne chauffe plus sur le foyer avant gauche.',
        complaint_name: 'Produit défectueux',
        sav_type: 'repair',
        rdv_date: '2026-12-01',
        rdv_time: '10:00',
      },
    },
    responses: {
      201: {
        description: 'The SAV is open.',
        body: coreSavCreated,
        links: Object.fromEntries(
          (['resolve', 'close', 'reopen', 'cancel'] as const).map((verb) => [
            verb,
            { operationId: `${verb}Sav`, parameters: { id: '$response.body#/sav_id' } },
          ]),
        ),
      },
      400: failure(
        'A field is missing or invalid, the products belong to several sales, a media URL names an internal address, or a query parameter was given.',
        refusalOf(createSavBody, { saleProductId: 5 }, invalidRequest),
      ),
      ...coreCommon,
      404: failure('No sale has one of the products.', saleProductsNotFound([404404])),
      409: failure(
        'The appointment slot cannot be had (full, holiday, closed day, unknown slot, past day); nothing is recorded.',
        appointmentRefused(new Refusal('slot_full', 'full'), { date: '2026-12-01', time: '10:00' }),
      ),
      ...coreBodyFailures(mediaBodyLimitMib),
    },
  },
  {
    ...base,
    method: 'post',
    path: '/api/sale-sav/upload-file',
    operationId: 'uploadSavFile',
    summary: "Fetches an image or a video from a public URL into the SAV's files",
    description:
      'Only http(s) URLs of public hosts (loopback, private, link-local and other internal ranges are refused without saying why), at most 3 redirects, 50 MiB and 60 s; the content must sniff as an image or a video.',
    body: uploadFileBody,
    bodyExample: { complaint_id: 1, prefix: 'photo', file_url: 'https://cdn.example.com/sav/plaque-foyer.jpg', file_name: 'plaque-foyer.jpg' },
    responses: {
      201: { description: 'Fetched and attached.', body: coreFileUploaded },
      400: failure('A field is missing or invalid, the URL is not allowed, or a query parameter was given.', remote('url_refused', 'loopback address')),
      ...coreCommon,
      404: failure('No SAV has this ID.', savNotFound(404404)),
      413: failure('The request body exceeds 1 MiB, or the remote file 50 MiB.', remote('too_large', 'the file exceeds 50 MiB')),
      415: failure('The body is not JSON, or the remote file is not an image or a video.', remote('unsupported_type', 'the file is not an image or a video')),
      502: failure('The remote host failed (connection refused, an error status).', remote('remote_failed', 'the remote host answered 500')),
      504: failure('The remote host did not answer the whole file within 60 s.', remote('timeout', 'the remote host did not answer in time')),
    },
  },
  {
    ...base,
    method: 'post',
    path: '/api/sale-sav/:savId/files',
    operationId: 'uploadCoreSavFileContent',
    summary: 'Stores one image or video sent as the request body on a SAV',
    description: `The file itself is the body (up to ${savFileUploadMaxBytes / 1024 / 1024} MiB, uncompressed), written to disk as it arrives: the way for photos and videos too large for a JSON body's data URLs. Its content decides what it is (${acceptedMediaFormats}); declared image/* it must be an image, video/* a video.`,
    pathParams: z.object({ savId: z.string().describe('The SAV ID') }),
    query: savFileUploadQuery,
    bodyFile: ['image/*', 'video/*', 'application/octet-stream'],
    responses: {
      201: { description: 'Stored and attached.', body: coreFileStored },
      400: failure('The SAV ID or a query parameter is invalid.', invalidField('category', 'Too big: expected string to have <=64 characters')),
      ...coreCommon,
      404: failure('No SAV has this ID.', savNotFound(404404)),
      413: failure(
        `The file exceeds ${savFileUploadMaxBytes / 1024 / 1024} MiB.`,
        new HttpError(413, ...bodyErrorTexts.tooLarge.core(savFileUploadMaxBytes / 1024 / 1024)),
      ),
      415: failure(
        'The content is not an accepted image or video, or not what it was declared as, or the body is compressed or JSON.',
        coreUploadTexts.notMedia(),
      ),
    },
  },
  {
    ...base,
    method: 'get',
    path: '/api/sale-sav/:savId/files/:fileId',
    operationId: 'downloadCoreSavFile',
    summary: "A SAV's stored photo or video",
    description: "The file of a SAV's `files[].download_url`, once stored; nosniff, a sandbox CSP and private, no-store.",
    pathParams: z.object({ savId: z.string().describe('The SAV ID'), fileId: z.string().describe('The file ID') }),
    responses: {
      200: { description: 'The file, with its content type.', body: z.string().describe("The file's bytes"), mediaTypes: ['image/*', 'video/*'] },
      400: failure('A query parameter was given.', unknownQueryParameter()),
      ...coreCommon,
      404: failure('No such file, or not stored (yet).', savFileNotStored('12', '00000000-0000-4000-8000-000000000000', null)),
    },
  },
  {
    ...base,
    tags: ['core-planning'],
    method: 'get',
    path: '/api/sale-sav/planning/occupied',
    operationId: 'getPlanningOccupied',
    summary: 'The places taken per day and slot in the SAV planning (or the plannings listed)',
    description:
      'The days: `date`, `dates`, or `start_date`/`end_date` (default today + 30 days in the planning time zone; at most 366 days). Lists are also read as `dates=a&dates=b`, `dates[]=a` or `dates[0]=a`. Every requested day is a key of `occupied`.',
    query: occupiedQuery,
    responses: {
      200: { description: 'The occupancy.', body: corePlanningOccupied, example: occupiedExample },
      400: failure(
        'A parameter is invalid or unknown, or the range is reversed or longer than 366 days.',
        refusalOf(occupiedQuery, { date: '2026-13-01' }, invalidRequest),
      ),
      ...coreCommon,
    },
  },
  {
    ...base,
    tags: ['core-planning'],
    method: 'get',
    path: '/api/sav-holidays',
    operationId: 'getSavHolidays',
    summary: 'The days without SAV appointments, this year and next',
    description: 'French public holidays plus declared ones, in date order; `?labels=true` answers `[{date, label}]` instead.',
    query: holidaysQuery,
    responses: {
      200: { description: 'The holidays.', body: coreHolidays, example: holidaysExample },
      400: failure('labels is neither true nor false, or another parameter was given.', refusalOf(holidaysQuery, { labels: 'yes' }, invalidRequest)),
      ...coreCommon,
    },
  },
];
