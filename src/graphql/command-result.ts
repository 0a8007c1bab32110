import { builder } from './builder.ts';

/** What a mutation did: its outcome (`declared`, `paid`, ...) or `unchanged` when the state already was so. */
export type CommandResult = { status: string };

export const CommandResultRef = builder.objectRef<CommandResult>('CommandResult').implement({
  description: 'A command accepted: what it did, or `unchanged` when the state already was what was asked (nothing recorded).',
  fields: (t) => ({ status: t.exposeString('status') }),
});
