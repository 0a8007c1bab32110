import { parseArgs } from 'node:util';
import { accessTokenDecider, type AccessTokenState } from '../../events/access/access-token-decider.ts';
import { issueAccessToken, revokeAccessToken } from '../../events/access/access-token-handlers.ts';
import { tokenGroup } from '../../events/access/events.ts';
import { decodeEvent, type StoredEvent } from '../../events/catalogue/catalogue.ts';
import type { AccessEvent } from '../../events/access/events.ts';

type TokenEvent = Extract<AccessEvent, { type: 'AccessTokenIssued' | 'AccessTokenRevoked' }>;
import { systemContext } from '../../events/command-context.ts';
import type { Runtime } from '../../runtime.ts';
import { CliError } from '../cli-error.ts';
import { printLine } from '../output.ts';

const usage = `token issue --group <${tokenGroup.options.join('|')}> [--label TEXT] | token list | token revoke <id>`;

/** `token issue|list|revoke`: API access tokens. The raw token is printed once and never stored. */
export const tokenCommand = async (runtime: Runtime, argv: string[]): Promise<void> => {
  const [action, ...rest] = argv;
  switch (action) {
    case 'issue': {
      const { values } = parseArgs({ args: rest, options: { group: { type: 'string' }, label: { type: 'string' } } });
      const group = tokenGroup.safeParse(values.group);
      if (!group.success) throw new CliError(`--group: must be one of ${tokenGroup.options.join(', ')}`);
      if (values.label !== undefined && (values.label.trim() === '' || values.label.length > 100)) {
        throw new CliError('--label: must be 1 to 100 characters');
      }
      const issued = await issueAccessToken(runtime.write, { group: group.data, label: values.label?.trim() }, systemContext());
      await printLine(`Issued token ${issued.tokenId} for group ${issued.group} (label ${issued.label}). It is shown once:`);
      await printLine(`${issued.token}`);
      return;
    }
    case 'list': {
      const recorded = await runtime.eventStore.readAll({ filter: { streamPrefixes: ['accesstoken-'] } });
      const tokens = new Map<string, AccessTokenState>();
      for (const event of recorded.map(decodeEvent) as StoredEvent<TokenEvent>[]) {
        tokens.set(event.streamName, accessTokenDecider.evolve(tokens.get(event.streamName) ?? accessTokenDecider.initialState(), event));
      }
      for (const state of tokens.values()) {
        if (state.status === 'absent') continue;
        const line = [state.tokenId, state.group, state.label, state.issuedAt, state.status === 'revoked' ? `revoked ${state.revokedAt}` : 'active'];
        await printLine(`${line.join('\t')}`);
      }
      return;
    }
    case 'revoke': {
      const tokenId = rest[0];
      if (!tokenId) throw new CliError(`usage: ${usage}`);
      const outcome = await revokeAccessToken(runtime.write, tokenId, systemContext());
      if (outcome.status === 'refused') throw new CliError(`token ${tokenId}: ${outcome.refusal.message}`);
      await printLine(outcome.status === 'revoked' ? `Revoked ${tokenId}` : `${tokenId} was already revoked`);
      return;
    }
    default:
      throw new CliError(`usage: ${usage}`);
  }
};
