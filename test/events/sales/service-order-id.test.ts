import { describe, expect, it } from 'vitest';
import { parseServiceOrderId, serviceOrderId } from '../../../src/events/sales/service-order-id.ts';

describe('a service order id', () => {
  it('when it is <increment_id>_<sale_product_id>, names the sale and the line', () => {
    expect(parseServiceOrderId('100004512_87')).toEqual({ incrementId: '100004512', saleProductId: 87 });
  });

  it('when the increment id has leading zeros, keeps them: they are part of the order number', () => {
    expect(parseServiceOrderId('000123_4')).toEqual({ incrementId: '000123', saleProductId: 4 });
  });

  it('when built from a sale and a line, reads back as them', () => {
    expect(parseServiceOrderId(serviceOrderId('100004512', 87))).toEqual({ incrementId: '100004512', saleProductId: 87 });
  });

  it.each(['', '100004512', '100004512_', '_87', '100004512-87', '100004512_87_1', 'abc_1', '1_x', ' 1_2', '1_2 ', '1_2\n', '-1_2', '1_2.5'])(
    'when it is %j, is not one',
    (value) => {
      expect(parseServiceOrderId(value)).toBeNull();
    },
  );

  it('when the line number is beyond the safe integers, is not one', () => {
    expect(parseServiceOrderId('1_9007199254740993')).toBeNull();
  });
});
