import path from 'node:path';
import type { Middleware } from 'koa';
import type { Config } from '../config/config.ts';
import { savFilesFolder } from '../files/sav-files.ts';
import { mediaBodyLimitMib } from './media-input.ts';
import { jsonBody } from '../http/json-body.ts';

/** The routes whose body is one image or video of a SAV, streamed to disk: the way for large files. */
export const savFileUploadPaths = [/^\/api\/sale-sav\/\d{1,10}\/files\/?$/i, /^\/api\/sav\/\d{1,10}\/files\/?$/i];

/** The largest file a SAV file upload takes, as a file fetched from a URL. */
export const savFileUploadMaxBytes = 50 * 1024 * 1024;

/**
 * The body of every route that takes one, read after the route's authentication (see json-body.ts):
 * JSON of 1 MiB, and of 16 MiB on the two SAV creations, which may carry photos and videos as data
 * URLs (media-input.ts); a file of 50 MiB on the SAV file uploads, written to disk as it arrives.
 */
export const requestBody = (config: Pick<Config, 'dataDir'>): Middleware =>
  jsonBody({
    largerLimits: { '/api/sale-sav/create-for-sale-product': mediaBodyLimitMib, '/api/sav': mediaBodyLimitMib },
    uploads: { paths: savFileUploadPaths, directory: path.join(config.dataDir, savFilesFolder, '.uploads'), maxBytes: savFileUploadMaxBytes },
  });
