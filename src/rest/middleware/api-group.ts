import type { Middleware } from 'koa';
import { chatbotEnvelope, coreEnvelope, supplierEnvelope, type ErrorEnvelope } from '../envelopes.ts';

export type ApiGroupName = 'core' | 'supplier' | 'chatbot';

const envelopes: Record<ApiGroupName, ErrorEnvelope> = {
  core: coreEnvelope,
  supplier: supplierEnvelope,
  chatbot: chatbotEnvelope,
};

/** Marks the routes of one API group, so that the error handler answers in that group's envelope. */
export const apiGroup =
  (name: ApiGroupName): Middleware =>
  async (ctx, next) => {
    ctx.state.apiGroup = name;
    ctx.state.envelope = envelopes[name];
    await next();
  };

/**
 * The group of a path, decided before the body is parsed, so that a malformed or oversized body is
 * refused in the envelope of the API the client called. The routers set it again (apiGroup) for
 * their own routes.
 */
const chatbotPaths = [/^\/api\/sale\/details\//, /^\/api\/Customer\/details\//, /^\/api\/sav(\/|$)/, /^\/api\/customer\/sav-status\/?$/, /^\/api\/product\//];
const supplierPaths = [/^\/api\/supplier-[ab]\//, /^\/api\/files\//];

export const groupOfPath = (path: string): ApiGroupName => {
  if (supplierPaths.some((pattern) => pattern.test(path))) return 'supplier';
  if (chatbotPaths.some((pattern) => pattern.test(path))) return 'chatbot';
  return 'core';
};

export const apiGroupByPath = (): Middleware => async (ctx, next) => {
  await apiGroup(groupOfPath(ctx.path))(ctx, next);
};
