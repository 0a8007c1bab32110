import { BlockList, isIP } from 'node:net';

/**
 * The addresses a fetch made on a client's behalf must never reach: the service's own host, the
 * internal network, cloud metadata endpoints, and every range that is not plain public unicast
 * (IANA special-purpose registries).
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

/**
 * IPv6 is judged the other way round: public unicast is 2000::/3 alone, so everything outside it is
 * refused. A list of what to refuse had missed `::ffff:0:7f00:1` (the IPv4-translated range
 * ::ffff:0:0:0/96, which Node's BlockList does not map to IPv4: the connection was attempted, and a
 * translator on the path carries it to 127.0.0.1). Outside 2000::/3 also lie the IPv4-compatible
 * (`::7f00:1`), NAT64 (64:ff9b::/96, /48), discard, unique local, link-local, site-local and
 * multicast ranges, and whatever is assigned there later.
 */
const ipv6GlobalUnicast = ['2000::', 3] as const;

/** Inside 2000::/3, what is not plain public unicast. */
const ipv6Ranges: readonly (readonly [string, number])[] = [
  ['2001::', 23], // IETF protocol assignments, incl. Teredo (embeds an IPv4 address)
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4: embeds an arbitrary IPv4 address
  ['3fff::', 20], // documentation
];

const internalIpv4 = new BlockList();
for (const [network, prefix] of ipv4Ranges) internalIpv4.addSubnet(network, prefix, 'ipv4');
const globalUnicast = new BlockList();
globalUnicast.addSubnet(...ipv6GlobalUnicast, 'ipv6');
const internalIpv6 = new BlockList();
for (const [network, prefix] of ipv6Ranges) internalIpv6.addSubnet(network, prefix, 'ipv6');

/** The IPv4 address an IPv4-mapped IPv6 address (::ffff:0:0/96, in any spelling) stands for, or null. */
const mappedIpv4 = (ipv6: string): string | null => {
  // The URL parser writes an IPv6 address in one canonical form: `::ffff:7f00:1` for ::ffff:127.0.0.1.
  const canonical = new URL(`http://[${ipv6}]/`).hostname;
  const groups = /^\[::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})\]$/.exec(canonical);
  if (!groups) return null;
  const [high, low] = [parseInt(groups[1]!, 16), parseInt(groups[2]!, 16)];
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
};

/** True for an address the service must not connect to on a client's behalf; anything that is not an IP address counts as internal. */
export const isInternalAddress = (address: string): boolean => {
  // A zone index (`fe80::1%eth0`) only ever comes with a link-local address.
  const bare = address.split('%')[0] ?? '';
  const family = isIP(bare);
  if (family === 0 || bare !== address) return true;
  if (family === 4) return internalIpv4.check(bare, 'ipv4');
  // An IPv4-mapped address is a connection to the IPv4 address it maps: judged as that one.
  const ipv4 = mappedIpv4(bare);
  if (ipv4 !== null) return internalIpv4.check(ipv4, 'ipv4');
  return !globalUnicast.check(bare, 'ipv6') || internalIpv6.check(bare, 'ipv6');
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
