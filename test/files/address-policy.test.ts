import { describe, expect, it } from 'vitest';
import { isInternalAddress, refusedOnSight } from '../../src/files/address-policy.ts';

describe('isInternalAddress', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['0.0.0.0', 'unspecified'],
    ['10.0.0.1', 'private 10/8'],
    ['172.16.0.1', 'private 172.16/12'],
    ['172.31.255.254', 'private 172.16/12'],
    ['192.168.1.10', 'private 192.168/16'],
    ['169.254.169.254', 'link-local, cloud metadata'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['198.18.0.1', 'benchmarking'],
    ['::1', 'IPv6 loopback'],
    ['::', 'IPv6 unspecified'],
    ['fe80::1', 'IPv6 link-local'],
    ['fe80::1%eth0', 'IPv6 link-local with a zone'],
    ['fd12:3456::1', 'unique local fc00::/7'],
    ['fc00::1', 'unique local fc00::/7'],
    ['ff02::1', 'IPv6 multicast'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:a00:1', 'IPv4-mapped 10.0.0.1, in hexadecimal'],
    ['::ffff:169.254.169.254', 'IPv4-mapped metadata address'],
    ['64:ff9b::a00:1', 'NAT64 of 10.0.0.1'],
    ['2002:a00:1::1', '6to4 of 10.0.0.1'],
    ['::ffff:0:7f00:1', 'IPv4-translated 127.0.0.1 (::ffff:0:0:0/96)'],
    ['::ffff:0:127.0.0.1', 'IPv4-translated 127.0.0.1, in dotted form'],
    ['::ffff:0:5db8:d822', 'IPv4-translated, even of a public IPv4 address'],
    ['0:0:0:0:0:ffff:7f00:1', 'IPv4-mapped 127.0.0.1, written in full'],
    ['::7f00:1', 'IPv4-compatible 127.0.0.1 (deprecated)'],
    ['::ffff:ffff:7f00:1', 'reserved ::/8, ending like a mapped address'],
    ['64:ff9b:1::7f00:1', 'local-use NAT64'],
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'Teredo, embedding an IPv4 address'],
    ['3fff::1', 'documentation 3fff::/20'],
    ['5f00::1', 'outside global unicast 2000::/3'],
    ['4000::1', 'outside global unicast 2000::/3, not yet assigned'],
    ['localhost', 'not an address'],
    ['', 'not an address'],
  ])('when the address is %s (%s), it is internal', (address) => {
    expect(isInternalAddress(address)).toBe(true);
  });

  it.each([
    ['93.184.216.34'],
    ['8.8.8.8'],
    ['172.32.0.1'],
    ['100.128.0.1'],
    ['2606:4700:4700::1111'],
    ['2a00:1450:4007::1'],
    ['::ffff:93.184.216.34'],
    ['::ffff:5db8:d822'],
  ])('when the address is %s, a public one, it is not internal', (address) => {
    expect(isInternalAddress(address)).toBe(false);
  });
});

describe('refusedOnSight', () => {
  it.each([
    ['http://127.0.0.1:8080/photo.jpg', { code: 'internal_host', host: '127.0.0.1' }],
    ['http://2130706433/photo.jpg', { code: 'internal_host', host: '127.0.0.1' }],
    ['http://0x7f.1/photo.jpg', { code: 'internal_host', host: '127.0.0.1' }],
    ['http://[::ffff:169.254.169.254]/latest/meta-data/', { code: 'internal_host', host: '[::ffff:a9fe:a9fe]' }],
    ['http://[::1]/photo.jpg', { code: 'internal_host', host: '[::1]' }],
    ['http://[::ffff:0:7f00:1]/photo.jpg', { code: 'internal_host', host: '[::ffff:0:7f00:1]' }],
    ['http://[::ffff:0:127.0.0.1]/photo.jpg', { code: 'internal_host', host: '[::ffff:0:7f00:1]' }],
    ['http://[64:ff9b::127.0.0.1]/photo.jpg', { code: 'internal_host', host: '[64:ff9b::7f00:1]' }],
    ['http://10.0.0.1/photo.jpg', { code: 'internal_host', host: '10.0.0.1' }],
    ['http://localhost:3000/photo.jpg', { code: 'internal_host', host: 'localhost' }],
    ['http://LOCALHOST./photo.jpg', { code: 'internal_host', host: 'localhost.' }],
    ['http://files.localhost/photo.jpg', { code: 'internal_host', host: 'files.localhost' }],
    ['https://user:secret@cdn.example.org/photo.jpg', { code: 'credentials' }],
  ])('when the URL is %s, it is refused without resolving anything', (url, refusal) => {
    expect(refusedOnSight(new URL(url))).toEqual(refusal);
  });

  it.each(['https://cdn.example.org/photo.jpg', 'http://93.184.215.14/photo.jpg', 'http://[2606:4700::1]/photo.jpg', 'http://intranet.example.org/photo.jpg'])(
    'when the URL is %s, only resolving its host could tell: it passes',
    (url) => {
      expect(refusedOnSight(new URL(url))).toBeNull();
    },
  );
});
