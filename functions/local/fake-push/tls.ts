/**
 * A self-signed TLS certificate for the fake push service (push endpoints are https URLs, and the
 * subscription schema refuses anything else), made at start with node:crypto alone: no openssl
 * binary, nothing committed. A P-256 key, X.509 v3 with CA:TRUE (it is its own trust anchor) and
 * subjectAltName 127.0.0.1 / localhost; the handlers trust it through OUTBOUND_EXTRA_CA.
 */
import { generateKeyPairSync, randomBytes, sign } from 'node:crypto';

const len = (n: number): Buffer => {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v >>= 8) bytes.unshift(v & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
};
const tlv = (tag: number, ...content: Buffer[]): Buffer => {
  const body = Buffer.concat(content);
  return Buffer.concat([Buffer.from([tag]), len(body.length), body]);
};
const seq = (...content: Buffer[]) => tlv(0x30, ...content);
const oid = (dotted: string): Buffer => {
  const [a, b, ...rest] = dotted.split('.').map(Number);
  const bytes = [40 * a! + b!];
  for (const part of rest) {
    const chunk: number[] = [];
    let v = part;
    do {
      chunk.unshift(v & 0x7f);
      v = Math.floor(v / 128);
    } while (v > 0);
    for (let i = 0; i < chunk.length - 1; i++) chunk[i]! |= 0x80;
    bytes.push(...chunk);
  }
  return tlv(0x06, Buffer.from(bytes));
};
const utcTime = (d: Date) => tlv(0x17, Buffer.from(d.toISOString().replace(/[-:T]/g, '').slice(2, 14) + 'Z', 'ascii'));
const name = (cn: string) => seq(tlv(0x31, seq(oid('2.5.4.3'), tlv(0x0c, Buffer.from(cn, 'utf8')))));
const ECDSA_SHA256 = seq(oid('1.2.840.10045.4.3.2'));

export interface SelfSignedCert {
  /** PEM */
  key: string;
  /** PEM */
  cert: string;
}

export function selfSignedCert(commonName = 'AgentDesk fake push service', now = new Date()): SelfSignedCert {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const serial = randomBytes(8);
  serial[0] = (serial[0]! & 0x7f) | 0x01;
  const subjectAltName = seq(tlv(0x82, Buffer.from('localhost', 'ascii')), tlv(0x87, Buffer.from([127, 0, 0, 1])));
  const basicConstraints = seq(tlv(0x01, Buffer.from([0xff])));
  const extensions = tlv(
    0xa3,
    seq(seq(oid('2.5.29.19'), tlv(0x04, basicConstraints)), seq(oid('2.5.29.17'), tlv(0x04, subjectAltName))),
  );
  const tbs = seq(
    tlv(0xa0, tlv(0x02, Buffer.from([2]))),
    tlv(0x02, serial),
    ECDSA_SHA256,
    name(commonName),
    seq(utcTime(new Date(now.getTime() - 24 * 3600_000)), utcTime(new Date(now.getTime() + 5 * 365 * 24 * 3600_000))),
    name(commonName),
    publicKey.export({ type: 'spki', format: 'der' }),
    extensions,
  );
  const signature = sign('sha256', tbs, privateKey);
  const der = seq(tbs, ECDSA_SHA256, tlv(0x03, Buffer.from([0]), signature));
  const pem = `-----BEGIN CERTIFICATE-----\n${der.toString('base64').match(/.{1,64}/g)!.join('\n')}\n-----END CERTIFICATE-----\n`;
  return { key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), cert: pem };
}
