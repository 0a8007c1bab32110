import { HttpError } from '../../http/http-error.ts';
import { noQueryParameters } from '../query-parameters.ts';

/** The core API's refusal of query parameters a route does not know (see query-parameters.ts). */
export const unknownParameters = (keys: readonly string[], known: readonly string[]): string =>
  known.length === 0
    ? `unknown parameter(s) ${keys.join(', ')}; this operation takes no query parameter`
    : `unknown parameter(s) ${keys.join(', ')}; the parameters are ${known.join(', ')}`;

/** For the core routes that take no query parameter. */
export const noCoreQuery = noQueryParameters((keys) => new HttpError(400, 'invalid_request', unknownParameters(keys, [])));
