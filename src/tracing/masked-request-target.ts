import type { IncomingMessage } from 'node:http';

/**
 * The request target as a span may record it: the path's first two segments (`/api/sale`, `/health`),
 * the rest replaced by `/…`, and the query string, if any, by `[redacted]`. The route pattern the
 * request matched is recorded apart (http.route), so nothing a dashboard groups by is lost.
 */
export const maskedRequestTarget = (request: IncomingMessage): Record<string, string> => {
  const target = request.url ?? '/';
  const query = target.indexOf('?');
  const path = query < 0 ? target : target.slice(0, query);
  const segments = path.split('/').filter(Boolean);
  const kept = `/${segments.slice(0, 2).join('/')}${segments.length > 2 ? '/…' : ''}`;
  return { 'url.path': kept, ...(query >= 0 ? { 'url.query': '[redacted]' } : {}) };
};
