import { Option, type Command } from 'commander';
import { accessTokenDecider, type AccessTokenState } from '../../events/access/access-token-decider.ts';
import { issueAccessToken, revokeAccessToken } from '../../events/access/access-token-handlers.ts';
import { tokenGroup, type AccessEvent, type TokenGroup } from '../../events/access/events.ts';
import { decodeEvent, type StoredEvent } from '../../events/registry.ts';
import { systemContext } from '../../events/command-context.ts';
import { CliError } from '../cli-error.ts';
import type { WithRuntime } from '../cli-runtime.ts';
import { examples } from '../help-examples.ts';
import { printLine } from '../output.ts';

type TokenEvent = Extract<AccessEvent, { type: 'AccessTokenIssued' | 'AccessTokenRevoked' }>;

/** `token issue|list|revoke`: API access tokens. The raw token is printed once and never stored. */
export const tokenCommand = (program: Command, withRuntime: WithRuntime): void => {
  const token = program
    .command('token')
    .description('API access tokens: issue one (printed once, alone on the last line), list them, revoke one')
    .addHelpText('after', examples('token issue --group supplier-a --label "Fournisseur A"', 'token list', 'token revoke 3k9x0c2v7b1n5m4q'));

  token
    .command('issue')
    .description('issue a token for an API group; only a hash of its secret is stored')
    .addOption(new Option('--group <group>', 'the API group it opens').choices(tokenGroup.options).makeOptionMandatory())
    .option('--label <text>', 'a name for it, shown in `token list` and in the events it causes (1 to 100 characters)')
    .addHelpText('after', examples('token issue --group analyst --label dashboards', 'token issue --group chatbot'))
    .action((options: { group: TokenGroup; label?: string }) =>
      withRuntime(async (runtime) => {
        if (options.label !== undefined && (options.label.trim() === '' || options.label.length > 100)) {
          throw new CliError('--label: must be 1 to 100 characters');
        }
        const issued = await issueAccessToken(runtime.write, { group: options.group, label: options.label?.trim() }, systemContext());
        await printLine(`Issued token ${issued.tokenId} for group ${issued.group} (label ${issued.label}). It is shown once:`);
        await printLine(`${issued.token}`);
      }),
    );

  token
    .command('list')
    .description('every token: id, group, label, issued at, active or revoked (never a secret)')
    .addHelpText('after', examples('token list'))
    .action(() =>
      withRuntime(async (runtime) => {
        const recorded = await runtime.eventStore.readAll({ filter: { streamPrefixes: ['accesstoken-'] } });
        const tokens = new Map<string, AccessTokenState>();
        for (const event of recorded.map(decodeEvent) as StoredEvent<TokenEvent>[]) {
          tokens.set(event.streamName, accessTokenDecider.evolve(tokens.get(event.streamName) ?? accessTokenDecider.initialState(), event));
        }
        await printLine(['ID', 'GROUP', 'LABEL', 'ISSUED AT', 'STATUS'].join('\t'));
        for (const state of tokens.values()) {
          if (state.status === 'absent') continue;
          const line = [state.tokenId, state.group, state.label, state.issuedAt, state.status === 'revoked' ? `revoked ${state.revokedAt}` : 'active'];
          await printLine(`${line.join('\t')}`);
        }
      }),
    );

  token
    .command('revoke')
    .description('revoke a token: refused from then on, by every instance')
    .argument('<id>', 'the token ID (the part before the dot; `token list` shows them)')
    .addHelpText('after', examples('token revoke 3k9x0c2v7b1n5m4q'))
    .action((tokenId: string) =>
      withRuntime(async (runtime) => {
        const outcome = await revokeAccessToken(runtime.write, tokenId, systemContext());
        if (outcome.status === 'refused') throw new CliError(`token ${tokenId}: ${outcome.refusal.message}`);
        await printLine(outcome.status === 'revoked' ? `Revoked ${tokenId}` : `${tokenId} was already revoked`);
      }),
    );
};
