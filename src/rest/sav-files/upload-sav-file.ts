import { rename } from 'node:fs/promises';
import path from 'node:path';
import type { RouterMiddleware } from '@koa/router';
import { z } from 'zod';
import { attachSavFile } from '../../events/after-sales/attach-sav-file.ts';
import { recordedNothing } from '../../events/recorded-nothing.ts';
import type { CommandContext } from '../../events/command-context.ts';
import { incomingFile, keepAs, safeFileName } from '../../files/file-storage.ts';
import { sniffMediaType } from '../../files/media-type.ts';
import { discardSavFile, savFilesFolder } from '../../files/sav-files.ts';
import { findSavById } from '../../projections/after-sales/queries.ts';
import type { Runtime } from '../../runtime.ts';
import type { HttpError } from '../../http/http-error.ts';
import type { ReceivedUpload } from '../../http/json-body.ts';
import { parseInput } from '../parse-input.ts';
import { queryParameters } from '../query-parameters.ts';
import { presentSavFile, type SavFileLinks } from './sav-file-presenter.ts';
import { noteWritten } from '../../http/read-your-writes.ts';

/** How each API group words what an upload is refused for. */
export type UploadTexts = {
  invalid: (field: string, issue: z.core.$ZodIssue) => HttpError;
  unknownParameters: (keys: readonly string[], known: readonly string[]) => string;
  savNotFound: (savId: number) => HttpError;
  /** The content is not one of the accepted images or videos, whatever it was declared as. */
  notMedia: () => HttpError;
  /** Declared as an image, it is a video (or the other way round). */
  notAsDeclared: (declared: string, found: string) => HttpError;
};

const savId = z
  .string()
  .regex(/^[1-9][0-9]{0,9}$/, 'must be a SAV ID (a positive integer)')
  .transform(Number)
  .pipe(z.number().max(2_147_483_647, 'must be a SAV ID (a positive integer)'));

const savFileUploadQueryShape = {
  category: z.string().trim().min(1).max(64).optional().describe('The file category (default: image or video, as the content is)'),
  file_name: z.string().trim().min(1).max(255).optional().describe('The name the file is shown under (default: <category>-<n>.<extension>)'),
};

/** The query of an upload, as documented (each group refuses unknown parameters in its own words). */
export const savFileUploadQuery = z.object(savFileUploadQueryShape);

/**
 * POST <group's path>/:savId/files: one image or video of a SAV, sent as the request body itself (up to
 * 50 MiB), written to disk as it arrives (http/json-body.ts) rather than held in memory as a
 * data URL of a JSON body: the way for large photos and videos. Its content decides what it is (an
 * accepted image or video format, checked from its first bytes); kept in the SAV's folder under a safe
 * name and recorded on the SAV (SavFileAttached), stored at once. `category` names the file's category
 * (default: its kind), `file_name` the name shown.
 */
export const uploadSavFile = (runtime: Runtime, texts: UploadTexts, group: SavFileLinks['group']): RouterMiddleware => {
  const { dataDir } = runtime.config;
  const query = queryParameters(savFileUploadQueryShape, texts.unknownParameters);
  return async (ctx) => {
    const id = parseInput(savId, (ctx.params as { savId: string }).savId, (_field, issue) => texts.invalid('savId', issue));
    const given = parseInput(query, ctx.query, texts.invalid);
    const upload = ctx.state.upload as ReceivedUpload;
    const media = sniffMediaType(upload.head);
    if (!media) throw texts.notMedia();
    const declaredKind = /^(image|video)\//.exec(upload.declaredType)?.[1];
    if (declaredKind !== undefined && declaredKind !== media.kind) throw texts.notAsDeclared(upload.declaredType, media.contentType);
    const sav = await findSavById(runtime.readStore, id);
    if (!sav) throw texts.savNotFound(id);

    const category = given.category ?? media.kind;
    const fileName = given.file_name ?? `${category}-${sav.files.length + 1}.${media.extension}`;
    const folder = path.posix.join(savFilesFolder, String(id));
    const incoming = await incomingFile(path.join(dataDir, folder));
    await rename(upload.file, incoming);
    const storedPath = path.posix.join(folder, await keepAs(incoming, safeFileName(fileName, media.extension)));

    const context: CommandContext = ctx.state.commandContext;
    const file = { kind: media.kind, category, sourceUrl: null, storedPath, fileName, contentType: media.contentType, size: upload.size };
    const attached = await attachSavFile(runtime.write, { savId: id, ...file }, context).catch(async (error: unknown) => {
      // A failure that may have recorded the attachment keeps the file its event would name.
      if (recordedNothing(error)) await discardSavFile(dataDir, storedPath);
      throw error;
    });
    if (attached.status === 'refused') {
      await discardSavFile(dataDir, storedPath);
      throw texts.savNotFound(id);
    }
    noteWritten(ctx.state, attached.written);
    const links = { baseUrl: runtime.config.baseUrl, group };
    const document = {
      ...file,
      fileId: attached.fileId,
      state: 'stored' as const,
      attempts: 0,
      lastError: null,
      nextAttemptAt: null,
      attachedAt: runtime.clock.now().toISOString(),
    };
    ctx.status = 201;
    ctx.body = { success: true, file: presentSavFile(id, document, links) };
  };
};
