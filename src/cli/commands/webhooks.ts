import { Option, type Command } from 'commander';
import { systemContext } from '../../events/command-context.ts';
import { decodeEvent, type StoredEvent } from '../../events/registry.ts';
import { supplierName, type SupplierName } from '../../events/schema/common-schemas.ts';
import { webhookKind, webhookKinds, type WebhookKind } from '../../events/webhooks/events.ts';
import {
  webhookSubscriptionDecider,
  type WebhookSubscriptionEvent,
  type WebhookSubscriptionState,
} from '../../events/webhooks/webhook-subscription-decider.ts';
import { changeWebhookSubscription, rotateWebhookSecret, subscribeWebhook } from '../../webhooks/webhook-subscriptions.ts';
import { CliError } from '../cli-error.ts';
import type { WithRuntime } from '../cli-runtime.ts';
import { examples } from '../help-examples.ts';
import { printLine } from '../output.ts';

/** `webhooks list|add|remove|rotate|resume`: the suppliers' webhook subscriptions, for staff. Secrets are printed once. */
export const webhooksCommand = (program: Command, withRuntime: WithRuntime): void => {
  const webhooks = program
    .command('webhooks')
    .description("the suppliers' webhook subscriptions: list, add (its secret printed once), remove, rotate the secret, resume a failing one")
    .addHelpText(
      'after',
      examples(
        'webhooks list',
        'webhooks add --supplier supplier-a --url https://hooks.supplier-a.example/sav',
        'webhooks resume wh_3f9c0a61d2b84e07 --supplier supplier-a',
      ),
    );
  const supplierOption = () => new Option('--supplier <supplier>', "the subscription's supplier").choices(supplierName.options).makeOptionMandatory();

  webhooks
    .command('list')
    .description('every subscription: id, supplier, url, kinds, status (never a secret)')
    .addHelpText('after', examples('webhooks list'))
    .action(() =>
      withRuntime(async (runtime) => {
        const recorded = await runtime.eventStore.readAll({ filter: { streamPrefixes: ['webhook-'] } });
        const subscriptions = new Map<string, WebhookSubscriptionState>();
        for (const event of recorded.map(decodeEvent) as StoredEvent<WebhookSubscriptionEvent>[]) {
          const state = subscriptions.get(event.streamName) ?? webhookSubscriptionDecider.initialState();
          subscriptions.set(event.streamName, webhookSubscriptionDecider.evolve(state, event));
        }
        await printLine(['ID', 'SUPPLIER', 'URL', 'KINDS', 'STATUS'].join('\t'));
        for (const state of subscriptions.values()) {
          if (state.status !== 'active') continue;
          const status = state.failing ? `failing since ${state.failing.failingAt}: ${state.failing.lastError}` : 'active';
          await printLine([state.subscriptionId, state.supplier, state.url, state.kinds.join(','), status].join('\t'));
        }
      }),
    );

  webhooks
    .command('add')
    .description("subscribe a supplier's HTTPS endpoint; its signing secret is printed once, alone on the last line")
    .addOption(supplierOption())
    .requiredOption('--url <url>', 'the https endpoint (its host must resolve to public addresses only)')
    .option('--kinds <kinds>', `comma-separated, among ${webhookKinds.join(', ')} (default all)`)
    .addHelpText('after', examples('webhooks add --supplier supplier-b --url https://hooks.supplier-b.example/in --kinds line.opened,line.cancelled'))
    .action((options: { supplier: SupplierName; url: string; kinds?: string }) =>
      withRuntime(async (runtime) => {
        const kinds = options.kinds === undefined ? [...webhookKinds] : options.kinds.split(',').map((kind) => kind.trim());
        const unknown = kinds.filter((kind) => !webhookKind.safeParse(kind).success);
        if (unknown.length > 0 || kinds.length === 0)
          throw new CliError(`--kinds: unknown ${unknown.join(', ') || '(none given)'}; among ${webhookKinds.join(', ')}`);
        const outcome = await subscribeWebhook(
          runtime.webhooks,
          { supplier: options.supplier, url: options.url, kinds: kinds as WebhookKind[] },
          systemContext(),
        );
        if (outcome.status === 'refused') throw new CliError(`--url: ${outcome.message}`);
        await printLine(`Subscribed ${outcome.subscription.subscriptionId} for ${options.supplier}. Its signing secret is shown once:`);
        await printLine(outcome.secret);
      }),
    );

  const change = (name: 'remove' | 'rotate' | 'resume', description: string) =>
    webhooks
      .command(name)
      .description(description)
      .argument('<id>', 'the subscription ID (`webhooks list` shows them)')
      .addOption(supplierOption())
      .addHelpText('after', examples(`webhooks ${name} wh_3f9c0a61d2b84e07 --supplier supplier-a`))
      .action((subscriptionId: string, options: { supplier: SupplierName }) =>
        withRuntime(async (runtime) => {
          const input = { supplier: options.supplier, subscriptionId };
          if (name === 'rotate') {
            const rotated = await rotateWebhookSecret(runtime.webhooks, input, systemContext());
            if (rotated.status === 'refused') throw new CliError(`${subscriptionId}: ${rotated.message}`);
            await printLine(`Rotated; the previous secret still signs until ${rotated.previousValidUntil}. The new secret is shown once:`);
            await printLine(rotated.secret);
            return;
          }
          const outcome = await changeWebhookSubscription(
            runtime.webhooks,
            { ...input, change: name === 'remove' ? 'Unsubscribe' : 'Resume' },
            systemContext(),
          );
          if (outcome.status === 'refused') throw new CliError(`${subscriptionId}: ${outcome.message}`);
          await printLine(
            name === 'remove' ? `Removed ${subscriptionId}` : outcome.status === 'changed' ? `Resumed ${subscriptionId}` : `${subscriptionId} was not failing`,
          );
        }),
      );
  change('remove', 'remove a subscription: nothing more is sent to it');
  change('rotate', 'give a subscription a new secret (printed once); the previous one still signs for a day');
  change('resume', 'resume a failing subscription from the message it stopped at');
};
