import { randomUUID } from 'node:crypto';
import type { CommandContext } from '../command-context.ts';
import { handleCommand, writtenBy, type WriteDeps, type Written } from '../command-handler.ts';
import type { Refusal } from '../decider.ts';
import { savStreamName } from './events.ts';
import type { AttachSavFile } from './sav-commands.ts';
import { savDecider } from './sav-decider.ts';

export type AttachSavFileInput = { savId: number; fileId?: string } & Omit<AttachSavFile, 'type' | 'fileId' | 'at'>;
export type AttachSavFileResult = { status: 'attached' | 'unchanged'; fileId: string; written?: Written } | { status: 'refused'; refusal: Refusal };

/** Attaches a stored file (or a link) to a SAV; the same file ID again records nothing. */
export const attachSavFile = async (deps: WriteDeps, input: AttachSavFileInput, context: CommandContext): Promise<AttachSavFileResult> => {
  const { savId, fileId = randomUUID(), ...file } = input;
  const command: AttachSavFile = { type: 'AttachSavFile', fileId, ...file, at: deps.clock.now().toISOString() };
  const outcome = await handleCommand(deps, savStreamName(savId), savDecider, command, context);
  if (outcome.status === 'refused') return { status: 'refused', refusal: outcome.refusal };
  return { status: outcome.status === 'accepted' ? 'attached' : 'unchanged', fileId, written: writtenBy(outcome) };
};
