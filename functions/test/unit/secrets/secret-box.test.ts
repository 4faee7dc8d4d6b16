/**
 * Secret boxes: the local key-file box, and the KMS envelope box (KMS through aws-json.ts, fetch +
 * Signature V4, issue 28) against a tiny fake KMS (awsJson1_1: GenerateDataKey / Decrypt) on
 * loopback; the box's requests are the KMS SDK's (the SDK sends the same ones to the same fake).
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DecryptCommand, GenerateDataKeyCommand, KMSClient } from '@aws-sdk/client-kms';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { awsJsonService } from '../../../src/adapters/aws/aws-json.js';
import { SecretOpenError } from '../../../src/adapters/secrets/aes-gcm.js';
import { KmsSecretBox } from '../../../src/adapters/secrets/kms-box.js';
import { LocalSecretBox } from '../../../src/adapters/secrets/local-box.js';

const SECRET = 'sk-proj-Ünïcødé-0123456789abcdef';

/** Flip one character of the part at `index` (keeps it valid base64url). */
function tamper(sealed: string, index: number): string {
  const parts = sealed.split(':');
  const part = parts[index]!;
  const i = Math.floor(part.length / 2);
  parts[index] = part.slice(0, i) + (part[i] === 'A' ? 'B' : 'A') + part.slice(i + 1);
  return parts.join(':');
}

describe('LocalSecretBox', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'secret-box-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('creates a 32-byte key file readable only by its owner, and round-trips across instances', async () => {
    const keyFile = join(dir, 'a', 'secrets.key');

    const sealed = await new LocalSecretBox(keyFile).seal(SECRET);
    const opened = await new LocalSecretBox(keyFile).open(sealed);

    expect(opened).toBe(SECRET);
    expect(readFileSync(keyFile).length).toBe(32);
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(sealed).toMatch(/^v1:local:[A-Za-z0-9_-]+:[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain('sk-proj');
  });

  it('seals the same text differently every time', async () => {
    const box = new LocalSecretBox(join(dir, 'b.key'));

    const [one, two] = [await box.seal(SECRET), await box.seal(SECRET)];

    expect(one).not.toBe(two);
    expect(await box.open(one)).toBe(SECRET);
    expect(await box.open(two)).toBe(SECRET);
  });

  it('detects tampering with the ciphertext, the IV or the format', async () => {
    const box = new LocalSecretBox(join(dir, 'c.key'));
    const sealed = await box.seal(SECRET);

    await expect(box.open(tamper(sealed, 3))).rejects.toBeInstanceOf(SecretOpenError);
    await expect(box.open(tamper(sealed, 2))).rejects.toBeInstanceOf(SecretOpenError);
    await expect(box.open(sealed.replace('v1:local', 'v2:local'))).rejects.toBeInstanceOf(SecretOpenError);
    await expect(box.open(sealed.slice(0, -4))).rejects.toBeInstanceOf(SecretOpenError);
  });

  it('cannot open a value sealed with another key', async () => {
    const sealed = await new LocalSecretBox(join(dir, 'd.key')).seal(SECRET);

    await expect(new LocalSecretBox(join(dir, 'e.key')).open(sealed)).rejects.toBeInstanceOf(SecretOpenError);
  });
});

/** A KMS stand-in speaking the SDK's wire protocol; data keys are wrapped with its own master key. */
async function startFakeKms() {
  const master = randomBytes(32);
  const calls: { target: string; body: Record<string, unknown> }[] = [];
  const aadOf = (keyId: unknown, context: unknown) => Buffer.from(JSON.stringify([keyId, context]));
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const target = String(req.headers['x-amz-target'] ?? '');
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
      calls.push({ target, body });
      const reply = (status: number, payload: unknown) => {
        res.writeHead(status, { 'content-type': 'application/x-amz-json-1.1' });
        res.end(JSON.stringify(payload));
      };
      if (!String(req.headers.authorization ?? '').startsWith('AWS4-HMAC-SHA256')) return reply(400, { __type: 'MissingAuthenticationTokenException', message: 'no signature' });
      if (target === 'TrentService.GenerateDataKey') {
        if (body.KeySpec !== 'AES_256') return reply(400, { __type: 'ValidationException', message: 'KeySpec' });
        const dataKey = randomBytes(32);
        const iv = randomBytes(12);
        const cipher = createCipheriv('aes-256-gcm', master, iv).setAAD(aadOf(body.KeyId, body.EncryptionContext));
        const blob = Buffer.concat([iv, cipher.update(dataKey), cipher.final(), cipher.getAuthTag()]);
        return reply(200, { KeyId: body.KeyId, Plaintext: dataKey.toString('base64'), CiphertextBlob: blob.toString('base64') });
      }
      if (target === 'TrentService.Decrypt') {
        try {
          const blob = Buffer.from(String(body.CiphertextBlob), 'base64');
          const decipher = createDecipheriv('aes-256-gcm', master, blob.subarray(0, 12)).setAAD(aadOf(body.KeyId, body.EncryptionContext));
          decipher.setAuthTag(blob.subarray(blob.length - 16));
          const dataKey = Buffer.concat([decipher.update(blob.subarray(12, blob.length - 16)), decipher.final()]);
          return reply(200, { KeyId: body.KeyId, Plaintext: dataKey.toString('base64') });
        } catch {
          return reply(400, { __type: 'InvalidCiphertextException', message: '' });
        }
      }
      return reply(400, { __type: 'UnknownOperationException' });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const credentials = { accessKeyId: 'AKIDTEST', secretAccessKey: 'secret' };
  const client = new KMSClient({ endpoint, region: 'us-east-1', credentials, maxAttempts: 1 });
  const service = awsJsonService({ service: 'kms', targetPrefix: 'TrentService', jsonVersion: '1.1', endpoint, region: 'us-east-1', credentials: async () => credentials, maxAttempts: 1 });
  return {
    /** The KMS SDK: the oracle of the requests. */
    client,
    service,
    calls,
    close: () => {
      client.destroy();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}

describe('KmsSecretBox (envelope encryption through KMS)', () => {
  const KEY_ID = 'arn:aws:kms:us-east-1:123456789012:key/test';
  let kms: Awaited<ReturnType<typeof startFakeKms>>;
  let otherKms: Awaited<ReturnType<typeof startFakeKms>>;
  beforeAll(async () => {
    kms = await startFakeKms();
    otherKms = await startFakeKms();
  });
  afterAll(async () => {
    await kms.close();
    await otherKms.close();
  });

  it('asks KMS for an AES-256 data key per seal and stores only the encrypted data key', async () => {
    const box = new KmsSecretBox(kms.service, KEY_ID);
    const before = kms.calls.length;

    const one = await box.seal(SECRET);
    const two = await box.seal(SECRET);

    const generated = kms.calls.slice(before);
    expect(generated.map((c) => c.target)).toEqual(['TrentService.GenerateDataKey', 'TrentService.GenerateDataKey']);
    expect(generated[0]!.body).toMatchObject({ KeyId: KEY_ID, KeySpec: 'AES_256' });
    expect(one).toMatch(/^v1:kms:[A-Za-z0-9_-]+:[A-Za-z0-9_-]+:[A-Za-z0-9_-]+$/);
    expect(one.split(':')[2]).not.toBe(two.split(':')[2]);
    expect(one).not.toContain('sk-proj');
  });

  it('opens with KMS Decrypt, then from the warm cache', async () => {
    const sealed = await new KmsSecretBox(kms.service, KEY_ID).seal(SECRET);
    const fresh = new KmsSecretBox(kms.service, KEY_ID);
    const before = kms.calls.length;

    const first = await fresh.open(sealed);
    const second = await fresh.open(sealed);

    expect(first).toBe(SECRET);
    expect(second).toBe(SECRET);
    expect(kms.calls.slice(before).map((c) => c.target)).toEqual(['TrentService.Decrypt']);
  });

  it('detects a tampered ciphertext or encrypted data key', async () => {
    const sealed = await new KmsSecretBox(kms.service, KEY_ID).seal(SECRET);

    await expect(new KmsSecretBox(kms.service, KEY_ID).open(tamper(sealed, 4))).rejects.toBeInstanceOf(SecretOpenError);
    await expect(new KmsSecretBox(kms.service, KEY_ID).open(tamper(sealed, 2))).rejects.toBeInstanceOf(SecretOpenError);
  });

  it('sends the KMS SDK’s GenerateDataKey and Decrypt requests', async () => {
    const box = new KmsSecretBox(kms.service, KEY_ID);
    const before = kms.calls.length;
    const sealed = await box.seal(SECRET);
    await new KmsSecretBox(kms.service, KEY_ID).open(sealed);
    const [generate, decrypt] = kms.calls.slice(before);

    const context = { app: 'agentdesk', purpose: 'integration-secret' };
    const blob = Buffer.from(sealed.split(':')[2]!, 'base64url');
    await kms.client.send(new GenerateDataKeyCommand({ KeyId: KEY_ID, KeySpec: 'AES_256', EncryptionContext: context }));
    await kms.client.send(new DecryptCommand({ CiphertextBlob: blob, KeyId: KEY_ID, EncryptionContext: context }));
    const [sdkGenerate, sdkDecrypt] = kms.calls.slice(-2);

    expect(generate).toEqual(sdkGenerate);
    expect(decrypt).toEqual(sdkDecrypt);
  });

  it('cannot open a value under another KMS key, nor a locally sealed value', async () => {
    const sealed = await new KmsSecretBox(kms.service, KEY_ID).seal(SECRET);
    const dir = mkdtempSync(join(tmpdir(), 'secret-box-'));
    const local = await new LocalSecretBox(join(dir, 'k')).seal(SECRET);
    rmSync(dir, { recursive: true, force: true });

    await expect(new KmsSecretBox(otherKms.service, KEY_ID).open(sealed)).rejects.toBeInstanceOf(SecretOpenError);
    await expect(new KmsSecretBox(kms.service, KEY_ID).open(local)).rejects.toBeInstanceOf(SecretOpenError);
  });
});
