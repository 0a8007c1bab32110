import { expect } from 'vitest';
import type { SupplierName } from '../../src/events/schema/common-schemas.ts';
import { labelLinkKey, verifyLabelLink } from '../../src/labels/label-link-signature.ts';
import type { Runtime } from '../../src/runtime.ts';

/**
 * Checks a `link_to_label` as get-sales answers it: exactly the label's URL under `baseUrl`, with
 * `expires` and `signature` only, signed for this supplier and line and valid now. Answers the link.
 */
export const expectSignedLabelLink = (
  runtime: Pick<Runtime, 'tokenSecret' | 'clock'>,
  link: string,
  expected: { baseUrl: string; supplier: SupplierName; serviceOrderId: string },
): string => {
  const { baseUrl, supplier, serviceOrderId } = expected;
  const [unsigned, query] = link.split('?') as [string, string | undefined];
  expect(unsigned).toBe(`${baseUrl}/api/files/labels/${supplier}/${serviceOrderId}.pdf`);
  const parameters = new URLSearchParams(query);
  expect([...parameters.keys()]).toEqual(['expires', 'signature']);
  const verdict = verifyLabelLink(
    labelLinkKey(runtime.tokenSecret),
    { supplier, serviceOrderId },
    { expires: parameters.get('expires') ?? undefined, signature: parameters.get('signature') ?? undefined },
    runtime.clock.now(),
  );
  expect(verdict, link).toBe('valid');
  return link;
};
