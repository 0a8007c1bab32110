import type { LookupAddress } from 'node:dns';
import { checkTarget } from '../files/safe-fetch.ts';
import { RemoteFileError } from '../files/remote-file-error.ts';

/**
 * Whether a webhook endpoint may be registered: an https URL without credentials whose host resolves
 * to public addresses only (the SAV media's address policy). Null when it may; else why not, in words
 * that do not map the internal network (safe-fetch.ts). Checked again at each delivery.
 */
export const webhookUrlRefusal = async (
  raw: string,
  options: { allowHosts?: readonly string[]; resolve?: (hostname: string) => Promise<LookupAddress[]> } = {},
): Promise<string | null> => {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'the URL is not valid';
  }
  if (url.protocol !== 'https:') return 'the URL must be https';
  if (url.hash !== '') return 'the URL must not have a fragment';
  try {
    await checkTarget(url, options, AbortSignal.timeout(10_000));
    return null;
  } catch (error) {
    return error instanceof RemoteFileError ? error.message : 'the host could not be resolved';
  }
};
