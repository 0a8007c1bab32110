/// <reference lib="dom" />
import { useEffect, useState } from 'preact/hooks';
import { html } from './html.ts';
import { query, SignedOut } from './graphql.ts';

export type Answer<T> = { state: 'loading' } | { state: 'failed'; message: string } | { state: 'answered'; data: T };

/**
 * Asks the API whenever the document or its variables change, or `asked` (a count of the person's
 * requests: asking for the same period again asks again); a later question wins over an earlier one.
 */
export const useQuery = <T>(document: string | null, variables: Record<string, unknown>, asked = 0): Answer<T> => {
  const [answer, setAnswer] = useState<Answer<T>>({ state: 'loading' });
  const key = JSON.stringify(variables);
  useEffect(() => {
    if (document === null) return;
    let current = true;
    setAnswer({ state: 'loading' });
    query<T>(document, variables).then(
      (data) => current && setAnswer({ state: 'answered', data }),
      (error: unknown) => {
        if (current && !(error instanceof SignedOut)) setAnswer({ state: 'failed', message: error instanceof Error ? error.message : String(error) });
      },
    );
    return () => {
      current = false;
    };
  }, [document, key, asked]);
  return answer;
};

/** What a page shows while it waits, or when it could not get its figures. */
export const Pending = ({ answer }: { answer: Answer<unknown> }) =>
  answer.state === 'loading'
    ? html`<p class="loading" role="status">Chargement des chiffres…</p>`
    : answer.state === 'failed'
      ? html`<p class="error" role="alert">${answer.message}</p>`
      : null;
