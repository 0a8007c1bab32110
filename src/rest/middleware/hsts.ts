import type { Middleware } from 'koa';

const oneYear = 31_536_000;

/**
 * Tells browsers to come back over HTTPS only. Sent on secure requests alone (a browser ignores it over
 * plain HTTP); behind a TLS-terminating proxy `ctx.secure` reads `X-Forwarded-Proto`, but only when
 * the app trusts the proxy (`app.proxy`), so a client cannot forge it.
 */
export const hsts = (options: { maxAge?: number } = {}): Middleware => {
  const value = `max-age=${options.maxAge ?? oneYear}; includeSubDomains`;
  return async (ctx, next) => {
    if (ctx.secure) ctx.set('Strict-Transport-Security', value);
    await next();
  };
};
