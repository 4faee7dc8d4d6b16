/**
 * Encrypts integration secrets (API keys, tokens, tool header values) at rest.
 * AWS: KMS envelope encryption (a data key per seal, AES-256-GCM); local: AES-256-GCM with a key
 * file under LOCAL_DATA_DIR. The sealed text is self-describing ("v1:kms:..." / "v1:local:...").
 */
export interface SecretBox {
  seal(plaintext: string): Promise<string>;
  open(sealed: string): Promise<string>;
}
