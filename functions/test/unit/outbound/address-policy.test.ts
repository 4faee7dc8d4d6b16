/**
 * The outbound address policy classifies addresses without ipaddr.js (bundle size: see
 * address-policy.ts); it must refuse exactly what the ipaddr.js version refused, with the same
 * reason, for every address DNS or a URL can give: held to ipaddr.js (kept as a dependency for
 * this test) on the edges of every special range and on random addresses.
 */
import ipaddr from 'ipaddr.js';
import { describe, expect, it } from 'vitest';
import { blockedReason, ipLiteral } from '../../../src/adapters/outbound/address-policy.js';

// ---- The previous implementation, over ipaddr.js ----
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
function refRange(ip: ipaddr.IPv4 | ipaddr.IPv6): string {
  if (ip.kind() === 'ipv4') return ip.range();
  const v6 = ip as ipaddr.IPv6;
  const range = v6.range();
  if (range === 'ipv4Mapped' || range === 'rfc6145') {
    const p = v6.parts;
    return new ipaddr.IPv4([p[6]! >> 8, p[6]! & 0xff, p[7]! >> 8, p[7]! & 0xff]).range();
  }
  if (range === 'unicast' && v6.parts.slice(0, 6).every((x) => x === 0)) return 'ipv4Compatible';
  return range;
}
function refBlocked(address: string, allowLoopback = false): string | undefined {
  let ip: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    ip = ipaddr.parse(address);
  } catch {
    return 'not a valid IP address';
  }
  const range = refRange(ip);
  if (range === 'unicast') return undefined;
  if (range === 'loopback' && allowLoopback) return undefined;
  return DESCRIPTIONS[range] ?? `a special-purpose address (${range})`;
}
function refLiteral(hostname: string): string | undefined {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return ipaddr.isValid(bare) && (bare.includes(':') || ipaddr.IPv4.isValidFourPartDecimal(bare)) ? bare : undefined;
}

// ---- Addresses ----
let seed = 33;
const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
const randomBits = (width: number) => Array.from({ length: width / 16 }, () => BigInt(Math.floor(random() * 65536))).reduce((n, g) => (n << 16n) | g, 0n);

const v4 = (bits: bigint) => ipaddr.fromByteArray([24n, 16n, 8n, 0n].map((s) => Number((bits >> s) & 0xffn))).toString();
const v6parts = (bits: bigint) => [112n, 96n, 80n, 64n, 48n, 32n, 16n, 0n].map((s) => Number((bits >> s) & 0xffffn));
const v6forms = (bits: bigint) => {
  const ip = new ipaddr.IPv6(v6parts(bits));
  return [ip.toString(), ip.toNormalizedString(), (ip as unknown as { toFixedLengthString(): string }).toFixedLengthString(), `${ip.toString()}%eth0`, ip.toString().toUpperCase()];
};
const toBits = (ip: ipaddr.IPv4 | ipaddr.IPv6) => ip.toByteArray().reduce((n, b) => (n << 8n) | BigInt(b), 0n);

/** Network, its first and last addresses and their neighbours, and random addresses inside, of every special range. */
function edges(kind: 'ipv4' | 'ipv6'): bigint[] {
  const width = kind === 'ipv4' ? 32 : 128;
  const ranges = ((kind === 'ipv4' ? ipaddr.IPv4.prototype : ipaddr.IPv6.prototype) as unknown as { SpecialRanges: Record<string, unknown> }).SpecialRanges;
  const out: bigint[] = [];
  for (const value of Object.values(ranges)) {
    const list = (Array.isArray((value as unknown[])[0]) ? value : [value]) as [ipaddr.IPv4 | ipaddr.IPv6, number][];
    for (const [network, prefix] of list) {
      const start = toBits(network);
      const size = 1n << BigInt(width - prefix);
      const max = (1n << BigInt(width)) - 1n;
      for (const b of [start, start + 1n, start + size - 1n, start + size, start - 1n]) if (b >= 0n && b <= max) out.push(b);
      for (let i = 0; i < 8; i++) out.push(start + (randomBits(128) % size));
    }
  }
  return out;
}

describe('blockedReason and ipLiteral, held to ipaddr.js', () => {
  const check = (address: string) => {
    expect([address, blockedReason(address)]).toEqual([address, refBlocked(address)]);
    expect([address, blockedReason(address, true)]).toEqual([address, refBlocked(address, true)]);
    expect([address, ipLiteral(address)]).toEqual([address, refLiteral(address)]);
    expect([address, ipLiteral(`[${address}]`)]).toEqual([address, refLiteral(`[${address}]`)]);
  };

  it('IPv4: every special range’s edges and random addresses', () => {
    const all = [...edges('ipv4'), ...Array.from({ length: 800 }, () => randomBits(32))];
    for (const bits of all) check(v4(bits));
  });

  it('IPv6: every special range’s edges, random addresses, every written form', () => {
    const all = [...edges('ipv6'), ...Array.from({ length: 800 }, () => randomBits(128))];
    for (const bits of all) for (const form of v6forms(bits)) check(form);
  });

  it('IPv4 inside IPv6: mapped, translated, compatible, NAT64, 6to4, dotted or not', () => {
    const v4s = [...edges('ipv4'), ...Array.from({ length: 120 }, () => randomBits(32))];
    for (const bits of v4s) {
      const dotted = v4(bits);
      for (const form of [`::ffff:${dotted}`, `::ffff:0:${dotted}`, `::0:${dotted}`, `64:ff9b::${dotted}`, `2002::${dotted}`, `1:2:3:4:5:6:${dotted}`]) check(form);
      // ipaddr.js 2.5 read exactly "::a.b.c.d" as "::ffff:a.b.c.d" (so "::8.8.8.8", how the resolver writes the
      // IPv4-compatible address, passed); it is the IPv4-compatible address the policy refuses, as "::0:a.b.c.d" was.
      const compatible = new ipaddr.IPv6(v6parts(bits)).toNormalizedString();
      expect([dotted, blockedReason(`::${dotted}`)]).toEqual([dotted, refBlocked(compatible)]);
      for (const prefix of [0xffffn << 32n, 0xffffn << 48n, 0n, 0x64ff9bn << 96n]) for (const form of v6forms(prefix | bits)) check(form);
    }
  });

  it('the metadata service, loopback and the private ranges stay refused; a public address passes', () => {
    expect(blockedReason('169.254.169.254')).toBe('a link-local address');
    expect(blockedReason('::ffff:169.254.169.254')).toBe('a link-local address');
    expect(blockedReason('127.0.0.1')).toBe('a loopback address');
    expect(blockedReason('127.0.0.1', true)).toBeUndefined();
    expect(blockedReason('10.1.2.3', true)).toBe('a private address');
    expect(blockedReason('fd12:3456::7')).toBe('a unique-local address');
    expect(blockedReason('8.8.8.8')).toBeUndefined();
    expect(blockedReason('2a00:1450:4003:80b::200e')).toBeUndefined();
  });

  it('anything that is not a canonical literal is refused (ipaddr.js read some of them as an address: now stricter)', () => {
    for (const text of ['', 'localhost', 'example.com', '1.2.3', '256.1.1.1', '1::2::3', ':::', '12345::', '1.2.3.4.5', 'fe80::1%', '::ffff:1.2.3.256']) {
      expect(blockedReason(text)).toBe('not a valid IP address');
      expect(ipLiteral(text)).toBeUndefined();
      expect(ipLiteral(`[${text}]`)).toBeUndefined();
    }
    // ipaddr.js parsed these as 127.0.0.1; never reached anyway (URL hostnames are canonical, ipLiteral refused them).
    for (const text of ['127.1', '0x7f.0.0.1', '2130706433', '0177.0.0.1']) {
      expect(blockedReason(text)).toBe('not a valid IP address');
      expect(ipLiteral(text)).toBe(refLiteral(text));
    }
  });
});
