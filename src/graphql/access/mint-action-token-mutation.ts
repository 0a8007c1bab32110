import { InvalidActionTokenRequest, mintActionToken, type MintedActionToken } from '../../events/access/mint-action-token.ts';
import { findSaleById } from '../../projections/sales/queries.ts';
import { builder } from '../builder.ts';
import { badUserInput, notFound } from '../errors.ts';

/** Signs a link token for one action on one sale, as the back office's tools do; nothing is recorded until it is used. */

const ActionKindEnum = builder.enumType('ActionKind', {
  values: {
    invoice: { value: 'invoice' },
    cancel: { value: 'cancel' },
    address: { value: 'address' },
    rdv: { value: 'rdv' },
    delivery_rdv: { value: 'delivery-rdv' },
  } as const,
});

const MintedActionTokenRef = builder.objectRef<MintedActionToken>('MintedActionToken').implement({
  fields: (t) => ({
    token: t.exposeString('token'),
    jti: t.string({ resolve: ({ payload }) => payload.jti }),
    action: t.field({ type: ActionKindEnum, resolve: ({ payload }) => payload.action }),
    saleId: t.int({ resolve: ({ payload }) => payload.saleId }),
    productIds: t.intList({ nullable: true, resolve: ({ payload }) => payload.productIds ?? null }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime' }),
  }),
});

builder.mutationField('mintActionToken', (t) =>
  t.field({
    type: MintedActionTokenRef,
    authScopes: { staff: true },
    description: 'A signed, expiring link token bound to one sale and one action kind. Errors: NOT_FOUND (sale), BAD_USER_INPUT (a rule of the kind).',
    args: {
      action: t.arg({ type: ActionKindEnum, required: true }),
      saleId: t.arg.int({ required: true }),
      productIds: t.arg.intList({ description: 'cancel only: the products to cancel (none: the whole sale).' }),
      data: t.arg({ type: 'JSON', description: 'What the kind carries: rdv {date, time}, address, delivery-rdv {provider, reference, ...}, cancel {reason}.' }),
      ttlSeconds: t.arg.int(),
    },
    resolve: async (_root, args, context) => {
      const { runtime } = context;
      const sale = await findSaleById(runtime.readStore, args.saleId);
      if (!sale) throw notFound(`Sale ${args.saleId}`);
      const strangers = (args.productIds ?? []).filter((id) => !sale.products.some((product) => product.saleProductId === id));
      if (strangers.length > 0) throw badUserInput('productIds', `not products of sale ${args.saleId}: ${strangers.join(', ')}`);
      try {
        return mintActionToken({
          secret: runtime.tokenSecret,
          now: runtime.clock.now(),
          action: args.action,
          saleId: args.saleId,
          ...(args.productIds !== null && args.productIds !== undefined && { productIds: args.productIds }),
          ...(args.data !== null && args.data !== undefined && { data: args.data }),
          ...(args.ttlSeconds !== null && args.ttlSeconds !== undefined && { ttlSeconds: args.ttlSeconds }),
        });
      } catch (error) {
        if (error instanceof InvalidActionTokenRequest) throw badUserInput(error.field, error.reason);
        throw error;
      }
    },
  }),
);
