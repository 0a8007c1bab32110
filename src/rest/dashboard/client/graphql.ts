/// <reference lib="dom" />
/**
 * The dashboards' one data path: POST /graphql with the Bearer token the person pasted, kept in the
 * tab's sessionStorage only. A 401 (wrong, expired or revoked token) forgets the token and sends the
 * person back to the sign-in; every other failure becomes a sentence in French.
 */

const tokenKey = 'dashboard-token';

export const session = {
  token: (): string | null => sessionStorage.getItem(tokenKey),
  signIn: (token: string): void => sessionStorage.setItem(tokenKey, token),
  signOut: (): void => sessionStorage.removeItem(tokenKey),
};

/** The token was refused: the page shows the sign-in with this message. */
export class SignedOut extends Error {}

/** The question could not be answered: the message is for the person reading the page. */
export class QueryFailed extends Error {}

const signedOutListeners = new Set<(message: string) => void>();
export const onSignedOut = (listener: (message: string) => void): (() => void) => {
  signedOutListeners.add(listener);
  return () => signedOutListeners.delete(listener);
};

export const refusedTokenMessage = 'Ce jeton n’est pas (ou plus) accepté : il est inconnu, expiré ou révoqué. Collez un jeton valide pour continuer.';

type GraphqlError = { message: string; extensions?: { code?: string } };

const sentenceOf = (error: GraphqlError): string => {
  switch (error.extensions?.code) {
    case 'FORBIDDEN':
      return 'Votre jeton ne permet pas de voir ces informations.';
    case 'QUERY_TOO_COSTLY':
      return 'Cette demande est trop lourde : réduisez la période ou choisissez des semaines ou des mois.';
    case 'TOO_MANY_REQUESTS':
      return 'Trop de demandes en peu de temps : patientez une minute puis réessayez.';
    case 'BAD_USER_INPUT':
      return `Valeur refusée par le service : ${error.message}`;
    default:
      return `Le service n’a pas pu répondre (${error.message}).`;
  }
};

export const query = async <T>(document: string, variables: Record<string, unknown> = {}): Promise<T> => {
  const token = session.token();
  if (token === null) throw new SignedOut('Connectez-vous avec un jeton pour voir les tableaux de bord.');
  let response: Response;
  try {
    response = await fetch('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ query: document, variables }),
      credentials: 'omit',
      cache: 'no-store',
    });
  } catch {
    throw new QueryFailed('Le service ne répond pas : vérifiez la connexion puis réessayez.');
  }
  if (response.status === 401) {
    session.signOut();
    for (const listener of signedOutListeners) listener(refusedTokenMessage);
    throw new SignedOut(refusedTokenMessage);
  }
  const body = (await response.json().catch(() => null)) as { data?: T; errors?: GraphqlError[] } | null;
  if (body === null) throw new QueryFailed(`Le service a répondu de façon illisible (HTTP ${response.status}).`);
  if (body.errors?.length) throw new QueryFailed(sentenceOf(body.errors[0]!));
  if (body.data === undefined) throw new QueryFailed(`Le service n’a rien répondu (HTTP ${response.status}).`);
  return body.data;
};
