import Router from '@koa/router';
import { authenticate } from '../../http/authenticate.ts';
import { HttpError } from '../../http/http-error.ts';
import type { Runtime } from '../../runtime.ts';
import { noCoreQuery } from '../core/core-query.ts';
import { apiGroup } from '../middleware/api-group.ts';
import { getConsistencyProof, getHeadAtSize, getInclusionProof, getLatestHead, getPublicKeys } from './log-proofs.ts';

/**
 * The proofs of the log (docs/audit.md): for auditor tokens, in the core envelope; and the public key
 * the heads are signed with, for anyone, at a well-known address.
 */
export const auditRoutes = (runtime: Runtime): Router => {
  const router = new Router();
  router.get('/.well-known/log-public-key', noCoreQuery, getPublicKeys(runtime));
  const auditor = [
    apiGroup('core'),
    authenticate({
      findToken: runtime.accessTokens,
      scheme: 'bearer',
      groups: ['auditor'],
      unauthorized: () => new HttpError(401, 'Unauthorized', 'Invalid or missing Bearer token (an auditor token)'),
    }),
  ];
  router.get('/api/audit/log/head', ...auditor, noCoreQuery, getLatestHead(runtime));
  router.get('/api/audit/log/heads/:size', ...auditor, noCoreQuery, getHeadAtSize(runtime));
  router.get('/api/audit/log/inclusion', ...auditor, getInclusionProof(runtime));
  router.get('/api/audit/log/consistency', ...auditor, getConsistencyProof(runtime));
  return router;
};
