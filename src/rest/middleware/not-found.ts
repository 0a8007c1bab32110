import type { Middleware } from 'koa';
import { HttpError } from '../../http/http-error.ts';
import type { ApiGroupName } from './api-group.ts';

type Answer = readonly [error: string, message: string];

/** What an unknown route or method is told, in each group's language. */
const texts = {
  notFound: {
    english: (method: string, path: string): Answer => ['Not Found', `No route for ${method} ${path}`],
    french: (method: string, path: string): Answer => ['Ressource introuvable', `Aucune route pour ${method} ${path}`],
  },
  methodNotAllowed: {
    english: (allowed: string): Answer => ['Method Not Allowed', `Use ${allowed} on this route`],
    french: (allowed: string): Answer => ['Méthode non autorisée', `Utilisez ${allowed} sur cette route`],
  },
  notImplemented: {
    english: (method: string): Answer => ['Not Implemented', `The method ${method} is not supported`],
    french: (method: string): Answer => ['Méthode non prise en charge', `La méthode ${method} n'est pas prise en charge`],
  },
};

const usualOrder = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** The router lists HEAD before GET: `GET, HEAD` reads as people write it. */
const inUsualOrder = (allow: string): string =>
  allow
    .split(/,\s*/)
    .sort((a, b) => (usualOrder.indexOf(a) + 1 || usualOrder.length + 1) - (usualOrder.indexOf(b) + 1 || usualOrder.length + 1))
    .join(', ');

/**
 * Last in the chain: an unknown route (404) or a method a route does not take (405, with `Allow`, as
 * the routers set it) answer in JSON, in the envelope of their API group,
 * in French for the chatbot, like every other answer of the group.
 */
export const notFound = (): Middleware => async (ctx, next) => {
  await next();
  // One order for every answer that lists the route's methods: OPTIONS, 405 and 501 alike.
  const allow = ctx.response.get('Allow');
  if (allow) ctx.set('Allow', inUsualOrder(allow));
  if (ctx.body !== undefined && ctx.body !== null) return;
  const language = (ctx.state.apiGroup as ApiGroupName | undefined) === 'chatbot' ? 'french' : 'english';
  if (ctx.status === 404) {
    const [error, message] = texts.notFound[language](ctx.method, ctx.path);
    throw new HttpError(404, error, message);
  }
  // A route that exists and does not take the method: 405 with `Allow`, whatever the method (TRACE,
  // QUERY, or one the router does not know, for which it says 501): the route is there, the method not.
  if (ctx.status === 405 || (ctx.status === 501 && allow)) {
    const allowed = ctx.response.get('Allow');
    const [error, message] = texts.methodNotAllowed[language](allowed);
    throw new HttpError(405, error, message);
  }
  if (ctx.status === 501) {
    const [error, message] = texts.notImplemented[language](ctx.method);
    throw new HttpError(501, error, message);
  }
};
