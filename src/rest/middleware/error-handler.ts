import type { Middleware } from 'koa';
import { coreEnvelope, serverErrorTexts, type ErrorEnvelope } from '../envelopes.ts';
import { BodyBudgetExhaustedError, BodyEncodingError, BodyShapeError, NotFileBodyError, NotJsonBodyError } from '../../http/body-errors.ts';
import { HttpError } from '../../http/http-error.ts';
import type { Logger } from '../../logger.ts';

type ApiGroup = keyof typeof serverErrorTexts;

/** Errors raised by the body parser (co-body / raw-body) carry a status and a type; a body too large, the limit in bytes. */
type ParserError = { status?: number; type?: string; expose?: boolean; limit?: number };

/** The core and supplier APIs answer a refused body alike, in English. */
const inEnglish = {
  tooLarge: (mib = 1) => ['Payload Too Large', `The request body exceeds ${mib} MiB`] as const,
  malformed: ['Bad Request', 'The request body is not valid JSON'] as const,
  undecodable: (encoding: string) => ['Bad Request', `The request body is not valid ${encoding} data`] as const,
  unsupportedEncoding: (encoding: string) =>
    ['Unsupported Media Type', `The Content-Encoding ${encoding} is not supported (gzip, deflate, br or identity)`] as const,
  notJson: ['Unsupported Media Type', 'The request body must be JSON'] as const,
  notFile: [
    'Unsupported Media Type',
    'The request body must be the file itself, declared as image/*, video/* or application/octet-stream, uncompressed',
  ] as const,
  tooDeep: (path: string, limit: number) => ['Bad Request', `The request body nests more than ${limit} levels deep (at ${path})`] as const,
  tooManyValues: (path: string, limit: number) => ['Bad Request', `The request body holds more than ${limit} values (at ${path})`] as const,
  busy: ['Service Unavailable', 'The service is receiving too many large requests at once. Retry shortly.'] as const,
};

/** What a refused body is told, per API group (the OpenAPI document shows the same texts); a body too large, with the route's limit. */
export const bodyErrorTexts = {
  tooLarge: {
    core: inEnglish.tooLarge,
    supplier: inEnglish.tooLarge,
    chatbot: (mib = 1) => ['Requête trop volumineuse', `Le corps de la requête dépasse ${mib} Mio`] as const,
  },
  malformed: {
    core: inEnglish.malformed,
    supplier: inEnglish.malformed,
    chatbot: ['Paramètres invalides', "Le corps de la requête n'est pas un JSON valide"],
  },
  undecodable: {
    core: inEnglish.undecodable,
    supplier: inEnglish.undecodable,
    chatbot: (encoding: string) => ['Paramètres invalides', `Le corps de la requête n'est pas un ${encoding} valide`] as const,
  },
  unsupportedEncoding: {
    core: inEnglish.unsupportedEncoding,
    supplier: inEnglish.unsupportedEncoding,
    chatbot: (encoding: string) =>
      ['Type de contenu non pris en charge', `L'encodage ${encoding} n'est pas pris en charge (gzip, deflate, br ou identity)`] as const,
  },
  notJson: {
    core: inEnglish.notJson,
    supplier: inEnglish.notJson,
    chatbot: ['Type de contenu non pris en charge', 'Le corps de la requête doit être au format JSON'],
  },
  notFile: {
    core: inEnglish.notFile,
    supplier: inEnglish.notFile,
    chatbot: [
      'Type de contenu non pris en charge',
      'Le corps de la requête doit être le fichier lui-même, déclaré image/*, video/* ou application/octet-stream, non compressé',
    ],
  },
  tooDeep: {
    core: inEnglish.tooDeep,
    supplier: inEnglish.tooDeep,
    chatbot: (path: string, limit: number) => ['Paramètres invalides', `Le corps de la requête imbrique plus de ${limit} niveaux (à ${path})`] as const,
  },
  tooManyValues: {
    core: inEnglish.tooManyValues,
    supplier: inEnglish.tooManyValues,
    chatbot: (path: string, limit: number) => ['Paramètres invalides', `Le corps de la requête contient plus de ${limit} valeurs (à ${path})`] as const,
  },
  busy: {
    core: inEnglish.busy,
    supplier: inEnglish.busy,
    chatbot: ['Service indisponible', 'Le service reçoit trop de requêtes volumineuses à la fois : réessayez dans quelques instants.'],
  },
} as const;

const clientErrorOf = (error: unknown, group: ApiGroup): HttpError | undefined => {
  if (error instanceof HttpError) return error;
  if (error instanceof BodyShapeError) {
    const { problem, path, limit } = error.shape;
    const [title, message] = (problem === 'depth' ? bodyErrorTexts.tooDeep : bodyErrorTexts.tooManyValues)[group](path || '(root)', limit);
    return new HttpError(400, title, message);
  }
  if (error instanceof BodyBudgetExhaustedError) {
    const [title, message] = bodyErrorTexts.busy[group];
    return new HttpError(503, title, message);
  }
  if (error instanceof NotJsonBodyError) {
    const [title, message] = bodyErrorTexts.notJson[group];
    return new HttpError(415, title, message);
  }
  if (error instanceof NotFileBodyError) {
    const [title, message] = bodyErrorTexts.notFile[group];
    return new HttpError(415, title, message);
  }
  if (error instanceof BodyEncodingError) {
    const [title, message] = (error.problem === 'undecodable' ? bodyErrorTexts.undecodable : bodyErrorTexts.unsupportedEncoding)[group](error.encoding);
    return new HttpError(error.problem === 'undecodable' ? 400 : 415, title, message);
  }
  const parserError = error as ParserError;
  if (parserError?.type === 'entity.too.large' || parserError?.status === 413) {
    const mib = typeof parserError.limit === 'number' ? Math.round((parserError.limit / 1024 / 1024) * 100) / 100 : 1;
    const [title, message] = bodyErrorTexts.tooLarge[group](mib);
    return new HttpError(413, title, message);
  }
  // The JSON parser throws a SyntaxError carrying status 400 (and no type) on a malformed body.
  if (parserError?.type === 'entity.parse.failed' || (parserError?.status === 400 && (parserError.expose || error instanceof SyntaxError))) {
    const [title, message] = bodyErrorTexts.malformed[group];
    return new HttpError(400, title, message);
  }
  return undefined;
};

/** The body of a client error in a group's envelope. */
export const clientErrorBody = (envelope: ErrorEnvelope, error: HttpError): Record<string, unknown> => ({
  ...envelope(error.status, error.error, error.message),
  ...error.extra,
});

const graphqlCodes: Record<number, string> = { 400: 'BAD_REQUEST', 413: 'PAYLOAD_TOO_LARGE', 415: 'UNSUPPORTED_MEDIA_TYPE', 503: 'SERVICE_UNAVAILABLE' };

/** A refusal before GraphQL ran (the body, the budget) as GraphQL clients read errors. */
const graphqlErrorBody = (error: HttpError): Record<string, unknown> => ({
  errors: [{ message: error.message, extensions: { code: graphqlCodes[error.status] ?? error.error } }],
});

/**
 * First in the chain: renders every error in the envelope of the API group that the route set in
 * `ctx.state.envelope` (core by default), logs unexpected ones, and never lets a stack trace out.
 */
export const errorHandler =
  (options: { log: Logger }): Middleware =>
  async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      const envelope: ErrorEnvelope = ctx.state.envelope ?? coreEnvelope;
      const group: ApiGroup = ctx.state.apiGroup ?? 'core';
      const clientError = clientErrorOf(error, group);
      if (clientError) {
        if (clientError.logDetail)
          options.log.info(
            {
              requestId: ctx.state.requestId,
              correlationId: ctx.state.correlationId,
              method: ctx.method,
              path: ctx.path,
              status: clientError.status,
              ...clientError.logDetail,
            },
            'request refused',
          );
        ctx.status = clientError.status;
        if (error instanceof BodyBudgetExhaustedError) ctx.set('Retry-After', '1');
        // A body GraphQL never got to read is refused as GraphQL clients read errors; its routes' own answers (405) are the core's.
        const bodyRefused = !(error instanceof HttpError);
        ctx.body = bodyRefused && ctx.path.startsWith('/graphql') ? graphqlErrorBody(clientError) : clientErrorBody(envelope, clientError);
        return;
      }
      options.log.error(
        { err: error, requestId: ctx.state.requestId, correlationId: ctx.state.correlationId, method: ctx.method, path: ctx.path },
        'request failed',
      );
      const texts = serverErrorTexts[group];
      ctx.status = 500;
      ctx.body = envelope(500, texts.error, texts.message);
    }
  };
