/**
 * The AWS SecretBox: KMS envelope encryption. Each seal asks KMS for a fresh AES-256 data key
 * (GenerateDataKey), encrypts locally with AES-256-GCM and stores the KMS-encrypted data key
 * next to the ciphertext: "v1:kms:<encrypted data key>:<iv>:<ciphertext+tag>". Opening sends the
 * encrypted data key to KMS (Decrypt). The KMS key never leaves KMS; plaintext data keys live only
 * for one call. Opened values are kept in a small in-memory cache for the warm Lambda, so a chat
 * turn does not pay a KMS round trip for the same API key every time.
 *
 * KMS is called through aws-json.ts (fetch + Signature V4), not the SDK's KMS client (issue 28):
 * the same GenerateDataKey and Decrypt requests, whose binary members travel as base64 in JSON.
 */
import type { SecretBox } from '../../domain/secrets/ports.js';
import type { AwsJsonService } from '../aws/aws-json.js';
import { SecretOpenError, b64, decrypt, encrypt, fromB64 } from './aes-gcm.js';

const PREFIX = 'v1:kms';
/** Bound into every data key: KMS refuses to decrypt it under any other context. */
const ENCRYPTION_CONTEXT = { app: 'agentdesk', purpose: 'integration-secret' };
const CACHE_SIZE = 200;

export class KmsSecretBox implements SecretBox {
  private readonly opened = new Map<string, string>();

  constructor(
    private readonly kms: AwsJsonService,
    private readonly keyId: string,
  ) {}

  async seal(plaintext: string): Promise<string> {
    if (!this.keyId) throw new Error('SECRETS_KEY_ID is not configured');
    const out = await this.kms.call<{ Plaintext?: string; CiphertextBlob?: string }>('GenerateDataKey', {
      KeyId: this.keyId,
      KeySpec: 'AES_256',
      EncryptionContext: ENCRYPTION_CONTEXT,
    });
    if (!out.Plaintext || !out.CiphertextBlob) throw new Error('KMS returned no data key');
    const dataKey = Buffer.from(out.Plaintext, 'base64');
    try {
      const sealed = [PREFIX, b64(Buffer.from(out.CiphertextBlob, 'base64')), ...encrypt(dataKey, plaintext, PREFIX)].join(':');
      this.remember(sealed, plaintext);
      return sealed;
    } finally {
      dataKey.fill(0);
    }
  }

  async open(sealed: string): Promise<string> {
    const cached = this.opened.get(sealed);
    if (cached !== undefined) return cached;
    const parts = sealed.split(':');
    if (parts.length !== 5 || `${parts[0]}:${parts[1]}` !== PREFIX) throw new SecretOpenError('Not a KMS-sealed secret');
    let dataKey: Uint8Array | undefined;
    try {
      const out = await this.kms.call<{ Plaintext?: string }>('Decrypt', {
        CiphertextBlob: fromB64(parts[2]).toString('base64'),
        KeyId: this.keyId || undefined,
        EncryptionContext: ENCRYPTION_CONTEXT,
      });
      dataKey = out.Plaintext ? Buffer.from(out.Plaintext, 'base64') : undefined;
    } catch (error) {
      const name = (error as Error).name;
      if (name === 'InvalidCiphertextException' || name === 'IncorrectKeyException') throw new SecretOpenError();
      throw error;
    }
    if (!dataKey) throw new SecretOpenError();
    try {
      const plaintext = decrypt(dataKey, parts[3], parts[4], PREFIX);
      this.remember(sealed, plaintext);
      return plaintext;
    } finally {
      dataKey.fill(0);
    }
  }

  private remember(sealed: string, plaintext: string): void {
    if (this.opened.size >= CACHE_SIZE) this.opened.delete(this.opened.keys().next().value as string);
    this.opened.set(sealed, plaintext);
  }
}
