/**
 * Which IP addresses an outbound call to a user-supplied URL may reach: public unicast only.
 * Refused: loopback, private (RFC 1918), link-local (169.254.169.254, the cloud metadata
 * service), unique-local, carrier-grade NAT, unspecified, broadcast, multicast, reserved and
 * documentation ranges, IPv4-mapped / IPv4-translated IPv6 whose IPv4 is not public,
 * IPv4-compatible IPv6 (::a.b.c.d), NAT64, 6to4 and Teredo (tunnels that can embed any IPv4).
 */
import ipaddr from 'ipaddr.js';

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

/** The ipaddr.js range of an address, looking through IPv4-mapped/-translated IPv6 to the IPv4. */
function rangeOf(ip: ipaddr.IPv4 | ipaddr.IPv6): string {
  if (ip.kind() === 'ipv4') return ip.range();
  const v6 = ip as ipaddr.IPv6;
  const range = v6.range();
  if (range === 'ipv4Mapped' || range === 'rfc6145') {
    const p = v6.parts;
    const v4 = new ipaddr.IPv4([p[6]! >> 8, p[6]! & 0xff, p[7]! >> 8, p[7]! & 0xff]);
    return v4.range();
  }
  // ::a.b.c.d (deprecated IPv4-compatible): everything but the last 32 bits is zero.
  if (range === 'unicast' && v6.parts.slice(0, 6).every((x) => x === 0)) return 'ipv4Compatible';
  return range;
}

/**
 * Why an address is refused, or undefined when it may be reached. `allowLoopback` (only for
 * allow-listed host:ports) additionally lets loopback addresses through, nothing else.
 */
export function blockedReason(address: string, allowLoopback = false): string | undefined {
  let ip: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    ip = ipaddr.parse(address);
  } catch {
    return 'not a valid IP address';
  }
  const range = rangeOf(ip);
  if (range === 'unicast') return undefined;
  if (range === 'loopback' && allowLoopback) return undefined;
  return describe(range);
}

/** "[::1]" → "::1"; anything that is not an IP literal → undefined. */
export function ipLiteral(hostname: string): string | undefined {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return ipaddr.isValid(bare) && (bare.includes(':') || ipaddr.IPv4.isValidFourPartDecimal(bare)) ? bare : undefined;
}
