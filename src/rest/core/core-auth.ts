import type { Middleware } from 'koa';
import type { Runtime } from '../../runtime.ts';
import { HttpError } from '../../http/http-error.ts';
import { apiGroup } from '../middleware/api-group.ts';
import { authenticate } from '../../http/authenticate.ts';
import { idempotencyKey } from '../middleware/idempotency-key.ts';
import { requestBody } from '../request-body.ts';

/** Every failure of a core token (missing, unknown, revoked, another group's) answers the same 401. */
export const coreUnauthorized = (): HttpError => new HttpError(401, 'Unauthorized', 'Invalid or missing Bearer token');

/**
 * The guard of every core route: the core envelope, a Bearer token of the `core` group (supplier,
 * chatbot and analyst tokens are refused), then the body (never read for a refused token), and the
 * `Idempotency-Key` of its POST routes.
 */
export const coreGuard = (runtime: Runtime): Middleware[] => [
  apiGroup('core'),
  authenticate({ findToken: runtime.accessTokens, scheme: 'bearer', groups: ['core'], unauthorized: coreUnauthorized }),
  requestBody(runtime.config),
  idempotencyKey(runtime),
];
