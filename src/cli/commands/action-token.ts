import { Argument, type Command } from 'commander';
import { actionKind } from '../../events/access/events.ts';
import { InvalidActionTokenRequest, mintActionToken } from '../../events/access/mint-action-token.ts';
import { readSale } from '../../events/sales/deps.ts';
import type { Sale } from '../../events/sales/state.ts';
import type { EventStore } from '../../events/store/event-store.ts';
import type { Runtime } from '../../runtime.ts';
import type { ActionKind } from '../../events/access/events.ts';
import { CliError } from '../cli-error.ts';
import type { WithRuntime } from '../cli-runtime.ts';
import { examples } from '../help-examples.ts';
import { printLine } from '../output.ts';

const pageSize = 1000;

/** The sale with this ID, from its stream: the CLI has no read models, so its import event is looked up in the log. */
const findSale = async (store: EventStore, saleId: number): Promise<Sale | null> => {
  let after: number | undefined;
  for (;;) {
    const page = await store.readAll({ fromPosition: after, maxCount: pageSize, filter: { eventTypes: ['SaleImported'] } });
    const imported = page.find((event) => event.data.saleId === saleId);
    if (imported) return readSale(store, String(imported.data.incrementId));
    if (page.length < pageSize) return null;
    after = page.at(-1)!.position;
  }
};

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new CliError(`--data: not valid JSON (${(error as Error).message})`);
  }
};

/** Names the flag at fault, as the operator typed it. */
const flagOf = (field: string): string => {
  if (field === 'productIds' || field.startsWith('productIds.')) return '--products';
  if (field === 'ttlSeconds') return '--ttl';
  if (field === 'saleId') return '--sale';
  return field === 'data' ? '--data' : `--data: ${field.slice('data.'.length)}`;
};

/**
 * `action-token <kind> --sale <id>`: signs a link token for one action on one sale (what each kind
 * carries and its default lifetime: src/events/access/mint-action-token.ts). Nothing is recorded; the
 * token is printed alone on the last line.
 */
type ActionTokenOptions = { sale?: string; products?: string; data?: string; ttl?: string };

const mint = async (runtime: Runtime, kind: ActionKind, values: ActionTokenOptions): Promise<void> => {
  if (values.sale === undefined || !/^[1-9]\d{0,14}$/.test(values.sale)) throw new CliError('--sale: must be a sale ID (a positive integer)');
  if (values.products !== undefined && !/^[1-9]\d{0,14}(,[1-9]\d{0,14})*$/.test(values.products)) {
    throw new CliError('--products: must be sale product IDs separated by commas, e.g. 12,13');
  }
  if (values.ttl !== undefined && !/^[1-9]\d{0,9}$/.test(values.ttl)) throw new CliError('--ttl: must be a number of seconds (a positive integer)');
  const saleId = Number(values.sale);
  const productIds = values.products?.split(',').map(Number);

  const sale = await findSale(runtime.eventStore, saleId);
  if (!sale) throw new CliError(`--sale: no sale ${saleId} in the log`);
  const known = new Set(sale.products.map((product) => product.saleProductId));
  const strangers = (productIds ?? []).filter((id) => !known.has(id));
  if (strangers.length > 0) throw new CliError(`--products: not products of sale ${saleId}: ${strangers.join(', ')}`);

  let minted;
  try {
    minted = mintActionToken({
      secret: runtime.tokenSecret,
      now: runtime.clock.now(),
      action: kind,
      saleId,
      productIds,
      data: values.data === undefined ? undefined : parseJson(values.data),
      ttlSeconds: values.ttl === undefined ? undefined : Number(values.ttl),
    });
  } catch (error) {
    if (error instanceof InvalidActionTokenRequest) throw new CliError(`${flagOf(error.field)}: ${error.reason}`);
    throw error;
  }
  await printLine(`Action token "${kind}" for sale ${saleId} (order ${sale.incrementId}), valid until ${minted.expiresAt}:`);
  await printLine(`${minted.token}`);
};

export const actionTokenCommand = (program: Command, withRuntime: WithRuntime): void => {
  program
    .command('action-token')
    .description('sign a link token for one action on one sale (nothing is recorded); printed alone on the last line')
    .addArgument(new Argument('<kind>', 'the action').choices(actionKind.options))
    .option('--sale <id>', 'the sale ID')
    .option('--products <ids>', 'sale product IDs separated by commas (the actions on some products)')
    .option('--data <json>', 'what the action carries, as JSON (e.g. the new address)')
    .option('--ttl <seconds>', "how long it is valid (default: the kind's)")
    .addHelpText(
      'after',
      examples(
        'action-token invoice --sale 1',
        'action-token cancel --sale 1 --products 2,3 --ttl 3600',
        'action-token rdv --sale 1 --data \'{"date":"2026-11-02","time":"09:00"}\'',
      ),
    )
    .action((kind: ActionKind, options: ActionTokenOptions) => withRuntime((runtime) => mint(runtime, kind, options)));
};
