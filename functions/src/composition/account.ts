/** Wires the account group (profile, settings, password change) to its adapters. */
import { createAccountService } from '../domain/account/service.js';
import { once } from '../lib/once.js';
import { identityDeps } from './identity.js';
import { userViewDeps } from './user-view.js';

export const accountService = once(() => createAccountService({ ...userViewDeps(), ...identityDeps() }));
