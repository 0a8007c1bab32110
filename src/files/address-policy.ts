import { BlockList, isIP } from 'node:net';

/**
 * The addresses a fetch made on a client's behalf must never reach: the service's own host, the
 * internal network, cloud metadata endpoints, and every range that is not plain public unicast
 * (IANA special-purpose registries). IPv4-mapped IPv6 addresses (`::ffff:10.0.0.1`) are checked
 * against the IPv4 ranges by the BlockList itself.
 */
const ipv4Ranges: readonly (readonly [string, number])[] = [
  ['0.0.0.0', 8], // "this network", incl. the unspecified address
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, cloud metadata (169.254.169.254)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, incl. broadcast
];

const ipv6Ranges: readonly (readonly [string, number])[] = [
  ['::', 96], // unspecified, loopback (::1) and the deprecated IPv4-compatible addresses
  ['64:ff9b::', 96], // NAT64: would reach any IPv4 address, internal ones included
  ['64:ff9b:1::', 48], // local-use NAT64
  ['100::', 64], // discard-only
  ['2001::', 23], // IETF protocol assignments, incl. Teredo
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4: embeds an arbitrary IPv4 address
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // deprecated site-local
  ['ff00::', 8], // multicast
];

const internal = new BlockList();
for (const [network, prefix] of ipv4Ranges) internal.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of ipv6Ranges) internal.addSubnet(network, prefix, 'ipv6');

/** True for an address the service must not connect to on a client's behalf; anything that is not an IP address counts as internal. */
export const isInternalAddress = (address: string): boolean => {
  // A zone index (`fe80::1%eth0`) only ever comes with a link-local address.
  const bare = address.split('%')[0] ?? '';
  const family = isIP(bare);
  if (family === 0 || bare !== address) return true;
  return internal.check(bare, family === 4 ? 'ipv4' : 'ipv6');
};

/** Why a URL is refused on sight; `internal_host` names the host as the URL writes it. */
export type UrlRefusal = { code: 'credentials' } | { code: 'internal_host'; host: string };

/**
 * Why a URL must be refused before anything is fetched, when that is plain from the URL itself: a
 * literal internal address (in any form the URL parser normalises: decimal, IPv4-mapped...), a
 * `localhost` name, credentials. Null when only resolving its host can tell (safe-fetch.ts does).
 */
export const refusedOnSight = (url: URL): UrlRefusal | null => {
  if (url.username !== '' || url.password !== '') return { code: 'credentials' };
  const host = url.hostname
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '')
    .toLowerCase();
  const localName = host === 'localhost' || host.endsWith('.localhost');
  if (localName || (isIP(host) !== 0 && isInternalAddress(host))) return { code: 'internal_host', host: url.hostname };
  return null;
};
