/** The Google ID-token verifier, shared by the auth group and the Cognito custom-auth triggers. */
import { config } from '../config.js';
import { JoseGoogleTokenVerifier } from '../adapters/google.js';
import { once } from '../lib/once.js';

export const googleVerifier = once(() => new JoseGoogleTokenVerifier(config().GOOGLE_JWKS_URL, config().GOOGLE_CLIENT_ID));
