/** Ports the account domain adds to the auth ones. */
import type { AvatarUrlSigner } from '../auth/ports.js';

export interface AvatarStore extends AvatarUrlSigner {
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
}
