import type { GraphqlContext } from './context.ts';
import { forbidden } from './errors.ts';

/**
 * Changes reserved to staff: tokens of the core group (the back office's tools). Analysts' tokens
 * open /graphql for reading; such a change asked with one is refused with FORBIDDEN, nothing recorded.
 */
export const requireStaff = ({ token }: Pick<GraphqlContext, 'token'>): void => {
  if (token.group !== 'core') throw forbidden('Only staff (a Bearer token of the core group) may run this mutation');
};
