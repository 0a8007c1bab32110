/**
 * Why a remote file was not fetched and stored. The REST layer maps each code to its status; the
 * message speaks of the URL or the file, never of the service's internals.
 * - `url_refused`: not http(s), credentials in the URL, or a host that is (or resolves to) an internal address;
 * - `unresolvable`: the host name does not exist;
 * - `too_large`: over the size cap, announced or read;
 * - `unsupported_type`: the content is not one of the accepted image or video formats;
 * - `remote_failed`: the host could not be reached, answered an error, or redirected too often;
 * - `timeout`: the whole fetch took longer than allowed.
 */
export type RemoteFileErrorCode = 'url_refused' | 'unresolvable' | 'too_large' | 'unsupported_type' | 'remote_failed' | 'timeout';

export class RemoteFileError extends Error {
  constructor(
    readonly code: RemoteFileErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'RemoteFileError';
  }
}

/**
 * A URL refused by the address policy, or whose host does not resolve, is shown to clients without
 * the reason (internal address, unknown name, scheme...): the answers must not map the network. The
 * reason goes to the log.
 */
const undisclosed: ReadonlySet<RemoteFileErrorCode> = new Set(['url_refused', 'unresolvable']);

export const urlNotAllowed = 'the file URL is not allowed';

/** Why a file was not fetched, as a client may be told it. */
export const disclosedReason = (code: RemoteFileErrorCode, message: string): string => (undisclosed.has(code) ? urlNotAllowed : message);
