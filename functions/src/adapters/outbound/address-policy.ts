/**
 * Which IP addresses an outbound call to a user-supplied URL may reach: public unicast only.
 * Refused: loopback, private (RFC 1918), link-local (169.254.169.254, the cloud metadata
 * service), unique-local, carrier-grade NAT, unspecified, broadcast, multicast, reserved and
 * documentation ranges, IPv4-mapped / IPv4-translated IPv6 whose IPv4 is not public,
 * IPv4-compatible IPv6 (::a.b.c.d), NAT64, 6to4 and Teredo (tunnels that can embed any IPv4).
 *
 * The special-purpose ranges are ipaddr.js 2.5's (SpecialRanges, matched in the same order, the
 * same names), written out here instead of bundling ipaddr.js (~12.5 KB in every function that
 * fetches, the voice webhook among them, a first-contact bundle held to 300 KB). Only canonical
 * literals parse (node:net's isIPv4/isIPv6: what DNS answers and what URL hostnames are); ipaddr.js
 * also read "127.1" or "0x7f.0.0.1", which are refused here as "not a valid IP address".
 * test/unit/outbound/address-policy.test.ts holds this to ipaddr.js address by address.
 */
import { isIPv4, isIPv6 } from 'node:net';

const DESCRIPTIONS: Record<string, string> = {
  loopback: 'a loopback address',
  private: 'a private address',
  linkLocal: 'a link-local address',
  uniqueLocal: 'a unique-local address',
  carrierGradeNat: 'a carrier-grade NAT address',
  unspecified: 'an unspecified address',
  broadcast: 'a broadcast address',
  multicast: 'a multicast address',
  reserved: 'a reserved address',
  '6to4': 'a 6to4 tunnel address',
  teredo: 'a Teredo tunnel address',
  rfc6052: 'a NAT64 address',
  ipv4Compatible: 'an IPv4-compatible IPv6 address',
};

const describe = (range: string) => DESCRIPTIONS[range] ?? `a special-purpose address (${range})`;

/** [name, network, prefix bits], first match wins (ipaddr.js IPv4.prototype.SpecialRanges, in order). */
const V4_RANGES: ReadonlyArray<readonly [string, string, number]> = [
  ['unspecified', '0.0.0.0', 8],
  ['broadcast', '255.255.255.255', 32],
  ['multicast', '224.0.0.0', 4],
  ['linkLocal', '169.254.0.0', 16],
  ['loopback', '127.0.0.0', 8],
  ['carrierGradeNat', '100.64.0.0', 10],
  ['private', '10.0.0.0', 8],
  ['private', '172.16.0.0', 12],
  ['private', '192.168.0.0', 16],
  ['reserved', '192.0.0.0', 24],
  ['reserved', '192.0.2.0', 24],
  ['reserved', '192.88.99.0', 24],
  ['reserved', '198.18.0.0', 15],
  ['reserved', '198.51.100.0', 24],
  ['reserved', '203.0.113.0', 24],
  ['reserved', '240.0.0.0', 4],
  ['as112', '192.175.48.0', 24],
  ['as112', '192.31.196.0', 24],
  ['amt', '192.52.193.0', 24],
];

/** The same for IPv6 (ipaddr.js IPv6.prototype.SpecialRanges, in order). */
const V6_RANGES: ReadonlyArray<readonly [string, string, number]> = [
  ['unspecified', '::', 128],
  ['linkLocal', 'fe80::', 10],
  ['multicast', 'ff00::', 8],
  ['loopback', '::1', 128],
  ['uniqueLocal', 'fc00::', 7],
  ['ipv4Mapped', '::ffff:0:0', 96],
  ['deprecatedSiteLocal', 'fec0::', 10],
  ['discard', '100::', 64],
  ['rfc6145', '::ffff:0:0:0', 96],
  ['rfc6052', '64:ff9b::', 96],
  ['rfc6052', '64:ff9b:1::', 48],
  ['6to4', '2002::', 16],
  ['teredo', '2001::', 32],
  ['benchmarking', '2001:2::', 48],
  ['amt', '2001:3::', 32],
  ['as112v6', '2001:4:112::', 48],
  ['as112v6', '2620:4f:8000::', 48],
  ['deprecatedOrchid', '2001:10::', 28],
  ['orchid2', '2001:20::', 28],
  ['droneRemoteIdProtocolEntityTags', '2001:30::', 28],
  ['segmentRouting', '5f00::', 16],
  ['reserved', '2001::', 23],
  ['reserved', '2001:db8::', 32],
  ['reserved', '3fff::', 20],
];

/** An address as a BigInt of its 32 (IPv4) or 128 (IPv6) bits; null when it is not a canonical literal. */
function v4Bits(address: string): bigint | null {
  if (!isIPv4(address)) return null;
  return address.split('.').reduce((n, octet) => (n << 8n) | BigInt(Number(octet)), 0n);
}

function v6Bits(address: string): bigint | null {
  if (!isIPv6(address)) return null;
  let text = address.replace(/%.*$/, '').toLowerCase();
  // A trailing dotted IPv4 (::ffff:1.2.3.4) is the last two groups.
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const v4 = v4Bits(dotted[1]!);
    if (v4 === null) return null;
    text = `${text.slice(0, -dotted[1]!.length)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const groups = (part: string | undefined) => (part ? part.split(':') : []);
  const left = groups(head);
  const right = groups(tail);
  const all = tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  if (all.length !== 8) return null;
  return all.reduce((n, group) => (n << 16n) | BigInt(parseInt(group, 16)), 0n);
}

const matchIn = (bits: bigint, width: bigint, ranges: ReadonlyArray<readonly [string, string, number]>, parse: (a: string) => bigint | null): string => {
  for (const [name, network, prefix] of ranges) {
    const shift = width - BigInt(prefix);
    if (bits >> shift === parse(network)! >> shift) return name;
  }
  return 'unicast';
};

const v4Range = (bits: bigint) => matchIn(bits, 32n, V4_RANGES, v4Bits);

/** The ipaddr.js range name of an address, looking through IPv4-mapped/-translated IPv6 to the IPv4; null when not an IP literal. */
function rangeOf(address: string): string | null {
  const v4 = v4Bits(address);
  if (v4 !== null) return v4Range(v4);
  const v6 = v6Bits(address);
  if (v6 === null) return null;
  const range = matchIn(v6, 128n, V6_RANGES, v6Bits);
  if (range === 'ipv4Mapped' || range === 'rfc6145') return v4Range(v6 & 0xffffffffn);
  // ::a.b.c.d (deprecated IPv4-compatible): everything but the last 32 bits is zero.
  if (range === 'unicast' && v6 >> 32n === 0n) return 'ipv4Compatible';
  return range;
}

/**
 * Why an address is refused, or undefined when it may be reached. `allowLoopback` (only for
 * allow-listed host:ports) additionally lets loopback addresses through, nothing else.
 */
export function blockedReason(address: string, allowLoopback = false): string | undefined {
  const range = rangeOf(address);
  if (range === null) return 'not a valid IP address';
  if (range === 'unicast') return undefined;
  if (range === 'loopback' && allowLoopback) return undefined;
  return describe(range);
}

/** "[::1]" → "::1"; anything that is not an IP literal → undefined. */
export function ipLiteral(hostname: string): string | undefined {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return isIPv4(bare) || isIPv6(bare) ? bare : undefined;
}
