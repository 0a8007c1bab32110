import type { Middleware } from 'koa';
import type { SupplierName } from '../../events/schema/common-schemas.ts';
import { systemContext, type CommandContext } from '../../events/command-context.ts';
import { parseLabelPath } from '../../files/label-path.ts';
import { labelLinkKey, verifyLabelLink } from '../../labels/label-link-signature.ts';
import type { Runtime } from '../../runtime.ts';
import { authenticate } from '../../http/authenticate.ts';
import { invalidLink, unauthorized } from './file-answers.ts';
import { labelLinkQuery } from './schemas.ts';

/** Who may fetch the label a request names: its supplier, and the context of what the fetch records. */
export type LabelAccess = { supplier: SupplierName; commandContext: CommandContext };

export const filesPrefix = '/api/files/';

/**
 * A label opens with its signed link (`?expires=...&signature=...`, as get-sales hands it out: no
 * header needed) or, as before, with its supplier's Bearer token. A link that does not verify (altered,
 * made up, another line's or supplier's, expired, expiring later than any link issued) is refused
 * with 403, the same answer whatever the reason, unless the request also carries an Authorization
 * header: then the token decides, as it would without the link (a supplier's client sending its token
 * with an old link still gets its label).
 * Sets `ctx.state.labelAccess`.
 */
export const labelAccess = (runtime: Pick<Runtime, 'accessTokens' | 'tokenSecret' | 'clock' | 'log'>): Middleware => {
  const key = labelLinkKey(runtime.tokenSecret);
  const bearer = authenticate({ findToken: runtime.accessTokens, scheme: 'bearer', groups: ['supplier-a', 'supplier-b'], unauthorized });
  return async (ctx, next) => {
    if (ctx.query.expires !== undefined || ctx.query.signature !== undefined) {
      // A malformed or repeated parameter is no link of ours. The raw path: only the exact label shape names a label.
      const link = labelLinkQuery.safeParse(ctx.query);
      const target = parseLabelPath(ctx.path.slice(filesPrefix.length));
      const verdict = target && link.success ? verifyLabelLink(key, target, link.data, runtime.clock.now()) : 'invalid';
      if (target && verdict === 'valid') {
        ctx.state.labelAccess = { supplier: target.supplier, commandContext: systemContext(ctx.state.correlationId) } satisfies LabelAccess;
        return next();
      }
      if (!ctx.get('authorization')) {
        runtime.log.debug({ requestId: ctx.state.requestId, path: ctx.path, verdict }, 'label link refused');
        throw invalidLink();
      }
    }
    return bearer(ctx, async () => {
      ctx.state.labelAccess = { supplier: ctx.state.token.group, commandContext: ctx.state.commandContext } satisfies LabelAccess;
      await next();
    });
  };
};
