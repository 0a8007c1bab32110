import { mediaBodyLimitMib } from './media-input.ts';
import { jsonBody } from './middleware/json-body.ts';

/**
 * The body of every route that takes one, read after the route's authentication (see json-body.ts):
 * 1 MiB, and 16 MiB on the two SAV creations, which may carry photos and videos as data URLs
 * (media-input.ts). One middleware for the process, as the budget of bodies held at once is one.
 */
export const requestBody = jsonBody({
  largerLimits: { '/api/sale-sav/create-for-sale-product': mediaBodyLimitMib, '/api/sav': mediaBodyLimitMib },
});
