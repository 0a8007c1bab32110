import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { labelFileFor, labelPathFor, parseLabelPath } from '../../src/files/label-path.ts';

describe('label paths', () => {
  it('when a label path is built, it is labels/<supplier>/<service_order_id>.pdf under DATA_DIR/files', () => {
    expect(labelPathFor('supplier-a', '100004512_7')).toBe('labels/supplier-a/100004512_7.pdf');
    expect(labelFileFor('/srv/data', 'supplier-b', '100004512_8')).toBe(path.join('/srv/data', 'files', 'labels', 'supplier-b', '100004512_8.pdf'));
  });

  it('when a built path is parsed back, it names the same supplier and line', () => {
    expect(parseLabelPath(labelPathFor('supplier-b', '100004512_8'))).toEqual({ supplier: 'supplier-b', serviceOrderId: '100004512_8' });
  });

  it('when a path is anything but the exact label shape, it names no file', () => {
    const refused = [
      'labels/supplier-a/../supplier-b/1_2.pdf',
      'labels/supplier-a/%2e%2e/1_2.pdf',
      'labels/supplier-a/..%2f1_2.pdf',
      'labels\\supplier-a\\1_2.pdf',
      '/labels/supplier-a/1_2.pdf',
      '/etc/passwd',
      'labels/supplier-a/1_2.pdf\0.txt',
      'labels/supplier-a/1_2.pdf/',
      'labels/supplier-c/1_2.pdf',
      'labels/supplier-a/1_2.PDF',
      'labels/supplier-a/1-2.pdf',
      'labels/supplier-a/1_2.pdf\n',
      'labels/supplier-a/_2.pdf',
      '',
    ];
    for (const requested of refused) expect(parseLabelPath(requested), requested).toBeNull();
  });
});
