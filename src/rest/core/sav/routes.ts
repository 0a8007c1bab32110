import Router from '@koa/router';
import type { Runtime } from '../../../runtime.ts';
import { downloadSavFile } from '../../sav-files/download-sav-file.ts';
import { coreGuard } from '../core-auth.ts';
import { createForSaleProduct } from './create-for-sale-product.ts';
import { planningOccupied } from './planning-occupied.ts';
import { savFileNotStored } from './sav-errors.ts';
import { savHolidays } from './sav-holidays.ts';
import { uploadFile, type UploadOptions } from './upload-file.ts';

export type CoreSavOptions = {
  /** How SAV files are fetched: limits, and the origins exempt from the address check (tests only). */
  upload?: UploadOptions;
};

/** The core SAV operations and the SAV planning, for Bearer tokens of the core group. */
export const coreSavRoutes = (runtime: Runtime, options: CoreSavOptions = {}): Router => {
  const router = new Router();
  router.use(...coreGuard(runtime));
  router.post('/api/sale-sav/create-for-sale-product', createForSaleProduct(runtime));
  router.post('/api/sale-sav/upload-file', uploadFile(runtime, options.upload));
  router.get('/api/sale-sav/:savId/files/:fileId', downloadSavFile(runtime, savFileNotStored));
  router.get('/api/sale-sav/planning/occupied', planningOccupied(runtime));
  router.get('/api/sav-holidays', savHolidays(runtime));
  return router;
};
