/** Wires the avatar group (the upload) to the uploads bucket. */
import { S3AvatarStore } from '../adapters/uploads.js';
import { createAvatarService } from '../domain/account/service.js';
import { once } from '../lib/once.js';
import { uploadsPresigner, userViewDeps } from './user-view.js';

export const avatarService = once(() =>
  createAvatarService({ ...userViewDeps(), avatars: new S3AvatarStore(uploadsPresigner()) }),
);
