/**
 * The local runtime's SecretBox: AES-256-GCM with one 32-byte key in LOCAL_DATA_DIR/secrets.key,
 * created (mode 0600) on first use. Sealed: "v1:local:<iv>:<ciphertext+tag>".
 * Deleting the key file makes every stored secret unreadable (re-enter the API keys).
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { SecretBox } from '../../domain/secrets/ports.js';
import { SecretOpenError, decrypt, encrypt } from './aes-gcm.js';

const PREFIX = 'v1:local';
const KEY_BYTES = 32;

export class LocalSecretBox implements SecretBox {
  private key: Buffer | undefined;

  constructor(private readonly keyFile: string) {}

  async seal(plaintext: string): Promise<string> {
    return [PREFIX, ...encrypt(this.loadKey(), plaintext, PREFIX)].join(':');
  }

  async open(sealed: string): Promise<string> {
    const parts = sealed.split(':');
    if (parts.length !== 4 || `${parts[0]}:${parts[1]}` !== PREFIX) throw new SecretOpenError('Not a locally sealed secret');
    return decrypt(this.loadKey(), parts[2], parts[3], PREFIX);
  }

  private loadKey(): Buffer {
    if (this.key) return this.key;
    let key: Buffer;
    try {
      key = readFileSync(this.keyFile);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      mkdirSync(dirname(this.keyFile), { recursive: true });
      try {
        // 'wx': if another process created it first, use theirs.
        writeFileSync(this.keyFile, randomBytes(KEY_BYTES), { mode: 0o600, flag: 'wx' });
      } catch (raced) {
        if ((raced as NodeJS.ErrnoException).code !== 'EEXIST') throw raced;
      }
      key = readFileSync(this.keyFile);
    }
    if (key.length !== KEY_BYTES) throw new Error(`${this.keyFile} must hold exactly ${KEY_BYTES} bytes`);
    this.key = key;
    return key;
  }
}
