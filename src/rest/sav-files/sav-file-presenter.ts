import { savFilePaths } from '../../contracts/sav-file-paths.ts';
import type { SavFileDocument } from '../../projections/after-sales/sav-document.ts';

/**
 * A SAV's file as the core and chatbot APIs show it (one shape for both): where its fetch stands and,
 * once stored, the link that downloads it with the group's own token.
 */

export type SavFileLinks = { baseUrl: string; group: keyof typeof savFilePaths };

export const presentSavFile = (savId: number, file: SavFileDocument, links: SavFileLinks) => ({
  id: file.fileId,
  kind: file.kind,
  category: file.category,
  name: file.fileName,
  /** pending: to be fetched (again); stored: downloadable; failed: given up. */
  state: file.state,
  content_type: file.contentType,
  size: file.size,
  source_url: file.sourceUrl,
  attempts: file.attempts,
  last_error: file.lastError,
  next_attempt_at: file.nextAttemptAt,
  attached_at: file.attachedAt,
  download_url: file.state === 'stored' ? `${links.baseUrl}${savFilePaths[links.group](savId, file.fileId)}` : null,
});
