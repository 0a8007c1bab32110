import Router from '@koa/router';
import type { Runtime } from '../../../runtime.ts';
import { downloadSavFile } from '../../sav-files/download-sav-file.ts';
import { coreGuard } from '../core-auth.ts';
import { noCoreQuery } from '../core-query.ts';
import { changeSavStatus } from './change-sav-status.ts';
import { createForSaleProduct } from './create-for-sale-product.ts';
import { planningOccupied } from './planning-occupied.ts';
import { coreUploadTexts, savFileNotStored } from './sav-errors.ts';
import { uploadSavFile } from '../../sav-files/upload-sav-file.ts';
import { savHolidays } from './sav-holidays.ts';
import { appointmentSlots, moveAppointment } from '../../sav-appointments/sav-appointment-routes.ts';
import { coreAppointmentRoutes } from './appointment-texts.ts';
import { uploadFile, type UploadOptions } from './upload-file.ts';

export type CoreSavOptions = {
  /** How SAV files are fetched: limits, and the origins exempt from the address check (tests only). */
  upload?: UploadOptions;
};

/** The core SAV operations and the SAV planning, for Bearer tokens of the core group. */
export const coreSavRoutes = (runtime: Runtime, options: CoreSavOptions = {}): Router => {
  const router = new Router();
  router.use(...coreGuard(runtime));
  router.post('/api/sale-sav/create-for-sale-product', noCoreQuery, createForSaleProduct(runtime));
  router.post('/api/sale-sav/upload-file', noCoreQuery, uploadFile(runtime, options.upload));
  router.post('/api/sale-sav/:savId/files', uploadSavFile(runtime, coreUploadTexts, 'core'));
  router.get('/api/sale-sav/:savId/files/:fileId', noCoreQuery, downloadSavFile(runtime, savFileNotStored));
  router.get('/api/sale-sav/planning/occupied', planningOccupied(runtime));
  router.get('/api/sav-holidays', savHolidays(runtime));
  // Staff change a SAV's status (see src/events/after-sales/sav-transitions.ts).
  router.post('/api/sale-sav/:id/resolve', noCoreQuery, changeSavStatus(runtime, 'resolve'));
  router.post('/api/sale-sav/:id/close', noCoreQuery, changeSavStatus(runtime, 'close'));
  router.post('/api/sale-sav/:id/reopen', noCoreQuery, changeSavStatus(runtime, 'reopen'));
  router.post('/api/sale-sav/:id/cancel', noCoreQuery, changeSavStatus(runtime, 'cancel'));
  // Staff list a SAV's free slots and book or move its appointment (see src/rest/sav-appointments).
  router.get('/api/sale-sav/:id/appointment/slots', appointmentSlots(runtime, coreAppointmentRoutes));
  router.post('/api/sale-sav/:id/appointment', noCoreQuery, moveAppointment(runtime, coreAppointmentRoutes));
  return router;
};
