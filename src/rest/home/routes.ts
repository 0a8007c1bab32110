import Router from '@koa/router';
import { homePage } from './home-page.ts';

/** GET /: the service's home page, without authentication. */
export const homeRoutes = (): Router => {
  const router = new Router();
  router.get('/', homePage);
  return router;
};
