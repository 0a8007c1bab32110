import type { RouterMiddleware } from '@koa/router';
import { attachSavFile } from '../../../events/after-sales/attach-sav-file.ts';
import { recordedNothing } from '../../../events/recorded-nothing.ts';
import type { CommandContext } from '../../../events/command-context.ts';
import { RemoteFileError } from '../../../files/remote-file-error.ts';
import type { SafeFetchOptions } from '../../../files/safe-fetch.ts';
import { discardSavFile, fetchSavFile, type StoredSavFile } from '../../../files/sav-files.ts';
import { findSavById } from '../../../projections/after-sales/queries.ts';
import type { Runtime } from '../../../runtime.ts';
import { parseInput } from '../../parse-input.ts';
import { invalidRequest, remoteFileRefused, savNotFound } from './sav-errors.ts';
import { uploadFileBody } from './schemas.ts';
import { noteWritten } from '../../../http/read-your-writes.ts';

/** How a SAV file is fetched; the defaults hold in production, tests narrow them or allow their loopback server. */
export type UploadOptions = Partial<SafeFetchOptions>;

const defaults: SafeFetchOptions = { maxBytes: 50 * 1024 * 1024, timeoutMs: 60_000, maxRedirects: 3 };

/**
 * POST /api/sale-sav/upload-file: fetches the file at `file_url` into the service's storage
 * (DATA_DIR/sav-files/<SAV ID>/), when it is an image or a video, and records it on the SAV under
 * its category (`prefix`). The URL must lead to a public host (see src/files/safe-fetch.ts).
 */
export const uploadFile = (runtime: Runtime, options: UploadOptions = {}): RouterMiddleware => {
  const fetchOptions: SafeFetchOptions = { ...defaults, ...options };
  const { dataDir } = runtime.config;
  return async (ctx) => {
    const body = parseInput(uploadFileBody, ctx.request.body, invalidRequest);
    const savId = body.complaint_id;
    if (!(await findSavById(runtime.readStore, savId))) throw savNotFound(savId);

    let file: StoredSavFile;
    try {
      file = await fetchSavFile(dataDir, { savId, url: body.file_url, fileName: body.file_name }, fetchOptions);
    } catch (error) {
      if (error instanceof RemoteFileError) {
        runtime.log.info({ savId, code: error.code, reason: error.message }, 'SAV file not fetched');
        throw remoteFileRefused(error);
      }
      throw error;
    }

    const context: CommandContext = ctx.state.commandContext;
    const attached = await attachSavFile(runtime.write, { savId, category: body.prefix, ...file }, context).catch(async (error: unknown) => {
      // A failure that may have recorded the attachment keeps the file its event would name.
      if (recordedNothing(error)) await discardSavFile(dataDir, file.storedPath);
      throw error;
    });
    if (attached.status === 'refused') {
      await discardSavFile(dataDir, file.storedPath);
      throw savNotFound(savId);
    }
    noteWritten(ctx.state, attached.written);

    ctx.status = 201;
    ctx.body = {
      success: true,
      message: 'File uploaded',
      file: {
        id: attached.fileId,
        complaint_id: savId,
        category: body.prefix,
        kind: file.kind,
        name: file.fileName,
        stored_name: file.storedPath.split('/').pop(),
        content_type: file.contentType,
        size: file.size,
      },
    };
  };
};
