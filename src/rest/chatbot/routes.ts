import Router from '@koa/router';
import type { Runtime } from '../../runtime.ts';
import { apiGroup } from '../middleware/api-group.ts';
import { authenticate } from '../../http/authenticate.ts';
import { idempotencyKey } from '../middleware/idempotency-key.ts';
import { noQueryParameters } from '../query-parameters.ts';
import { requestBody } from '../request-body.ts';
import { downloadSavFile } from '../sav-files/download-sav-file.ts';
import { chatbotMisplacedToken, chatbotUnauthorized, chatbotUploadTexts, invalidQuery, savFileNotStored } from './chatbot-errors.ts';
import { uploadSavFile } from '../sav-files/upload-sav-file.ts';
import { customerDetails } from './customer-details.ts';
import { openSav } from './open-sav.ts';
import { productDetails } from './product-details.ts';
import { saleDetails } from './sale-details.ts';
import { savStatus } from './sav-status.ts';
import { appointmentSlots, moveAppointment } from '../sav-appointments/sav-appointment-routes.ts';
import { chatbotAppointmentRoutes } from './appointment-texts.ts';

const noChatbotQuery = noQueryParameters(invalidQuery);

/**
 * The chatbot API: customer-support lookups and SAV creation, for `X-API-Token` tokens of the chatbot
 * group only (a Bearer header does not count). Errors answer in French, in the chatbot's envelope.
 */

export const chatbotRoutes = (runtime: Runtime): Router => {
  const router = new Router();
  router.use(
    apiGroup('chatbot'),
    authenticate({
      findToken: runtime.accessTokens,
      scheme: 'api-token',
      groups: ['chatbot'],
      unauthorized: chatbotUnauthorized,
      misplacedHint: chatbotMisplacedToken,
    }),
    requestBody(runtime.config),
    idempotencyKey(runtime),
  );
  router.get('/api/sale/details/:incrementId', noChatbotQuery, saleDetails(runtime));
  // Capital C: the path the chatbot calls.
  router.get('/api/Customer/details/:email', noChatbotQuery, customerDetails(runtime));
  router.post('/api/sav', noChatbotQuery, openSav(runtime));
  router.post('/api/sav/:savId/files', uploadSavFile(runtime, chatbotUploadTexts, 'chatbot'));
  router.get('/api/sav/:savId/files/:fileId', noChatbotQuery, downloadSavFile(runtime, savFileNotStored));
  router.get('/api/customer/sav-status', savStatus(runtime));
  const appointments = chatbotAppointmentRoutes(runtime);
  router.get('/api/sav/:savId/appointment/slots', appointmentSlots(runtime, appointments));
  router.post('/api/sav/:savId/appointment', noChatbotQuery, moveAppointment(runtime, appointments));
  router.get('/api/product/:sku', noChatbotQuery, productDetails(runtime));
  return router;
};
