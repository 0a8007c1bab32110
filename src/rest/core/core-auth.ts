import type { Middleware } from 'koa';
import type { Runtime } from '../../runtime.ts';
import { HttpError } from '../http-error.ts';
import { apiGroup } from '../middleware/api-group.ts';
import { authenticate } from '../middleware/authenticate.ts';

/** Every failure of a core token (missing, unknown, revoked, another group's) answers the same 401. */
export const coreUnauthorized = (): HttpError => new HttpError(401, 'Unauthorized', 'Invalid or missing Bearer token');

/**
 * The guard of every core route: the core envelope, and a Bearer token of the `core` group (supplier,
 * chatbot and analyst tokens are refused).
 */
export const coreGuard = (runtime: Runtime): Middleware[] => [
  apiGroup('core'),
  authenticate({ findToken: runtime.accessTokens, scheme: 'bearer', groups: ['core'], unauthorized: coreUnauthorized }),
];
