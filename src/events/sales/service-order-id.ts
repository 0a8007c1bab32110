/**
 * A supplier line is named by `service_order_id` = `<increment_id>_<sale_product_id>`: the increment
 * ID finds the sale's stream, the sale product ID the line in it.
 */

export type ServiceOrderRef = { incrementId: string; saleProductId: number };

const format = /^(\d+)_(\d+)$/;

export const serviceOrderId = (incrementId: string, saleProductId: number): string => `${incrementId}_${saleProductId}`;

/** Null when the string is not of that format (the edge answers it as an invalid identifier). */
export const parseServiceOrderId = (value: string): ServiceOrderRef | null => {
  const match = format.exec(value);
  if (!match) return null;
  const saleProductId = Number(match[2]);
  // Beyond the safe integers, two different strings would name the same line.
  if (!Number.isSafeInteger(saleProductId)) return null;
  return { incrementId: match[1] as string, saleProductId };
};
