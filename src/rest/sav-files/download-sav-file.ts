import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { RouterMiddleware } from '@koa/router';
import { savFilesFolder } from '../../files/sav-files.ts';
import type { SavFileDocument } from '../../projections/after-sales/sav-document.ts';
import { findSavById } from '../../projections/after-sales/queries.ts';
import type { Runtime } from '../../runtime.ts';
import type { HttpError } from '../../http/http-error.ts';

/**
 * GET <group's path>/:savId/files/:fileId: a stored file of a SAV, streamed from DATA_DIR/sav-files/.
 * A path naming no file, malformed or not, answers the group's 404; so does a file not stored (yet):
 * `notStored` tells which. Only the types the content check accepted are ever stored (no HTML, no
 * SVG), and they are served with nosniff and a sandbox policy all the same.
 */

export type NotStored = (savId: string, fileId: string, file: SavFileDocument | null) => HttpError;

const savIdPattern = /^[1-9][0-9]{0,9}$/;
const fileIdPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const downloadSavFile = (runtime: Runtime, notStored: NotStored): RouterMiddleware => {
  const folder = path.resolve(runtime.config.dataDir, savFilesFolder);
  return async (ctx) => {
    const { savId, fileId } = ctx.params as { savId: string; fileId: string };
    const sav = savIdPattern.test(savId) && fileIdPattern.test(fileId) ? await findSavById(runtime.readStore, Number(savId)) : null;
    const file = sav?.files.find((candidate) => candidate.fileId === fileId) ?? null;
    if (file?.state !== 'stored' || file.storedPath === null) throw notStored(savId, fileId, file);
    // Recorded by the service itself, under a safe name; checked all the same.
    const absolute = path.resolve(runtime.config.dataDir, file.storedPath);
    if (!absolute.startsWith(`${folder}${path.sep}`)) throw new Error(`SAV file ${fileId} is recorded outside ${savFilesFolder}: ${file.storedPath}`);
    // A stored file missing from the disk is the service's fault: a 500, logged.
    const { size } = await stat(absolute);
    ctx.type = file.contentType ?? 'application/octet-stream';
    ctx.length = size;
    ctx.set('Content-Disposition', `inline; filename="${path.basename(absolute)}"`);
    // Customers' photos of their homes: never kept by a shared cache, nor by the browser.
    ctx.set('Cache-Control', 'private, no-store');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Content-Security-Policy', "default-src 'none'; sandbox");
    ctx.body = createReadStream(absolute);
  };
};
