/**
 * The claims the pre-token-generation trigger issues (issue 32, domain/team/token-claims.ts and
 * triggers' V2 response shape): a person's membership, else their own account as owner; a sign-in
 * is logged once in the account it lands in, a refresh is not; a directory that cannot answer
 * refuses the sign-in rather than guess the account.
 */
import { describe, expect, it } from 'vitest';
import { ACCOUNT_CLAIMS } from '../../../src/contract/team.js';
import { accountClaims, type TokenClaimsDeps } from '../../../src/domain/team/token-claims.js';
import type { Membership, StoredActivity } from '../../../src/domain/team/ports.js';

type Entry = { accountId: string; entry: Omit<StoredActivity, 'id' | 'at'> };

function fakes(pointers: Record<string, Membership> = {}, options: { directoryFails?: boolean; logFails?: boolean } = {}) {
  const logged: Entry[] = [];
  const errors: string[] = [];
  const deps: TokenClaimsDeps = {
    directory: {
      resolve: async (personId) => {
        if (options.directoryFails) throw new Error('DynamoDB is unreachable');
        return pointers[personId] ?? null;
      },
    },
    activity: {
      append: async (accountId, entry) => {
        if (options.logFails) throw new Error('throttled');
        logged.push({ accountId, entry });
        return { id: String(logged.length), at: new Date().toISOString(), ...entry };
      },
    },
    onError: (message) => errors.push(message),
  };
  return { deps, logged, errors };
}

describe('accountClaims', () => {
  it('no membership: the person’s own account, as owner', async () => {
    const { deps } = fakes();
    expect(await accountClaims(deps, 'lucia', 'TokenGeneration_RefreshTokens')).toEqual({ [ACCOUNT_CLAIMS.account]: 'lucia', [ACCOUNT_CLAIMS.role]: 'owner' });
  });

  it('a member: the account and role of the pointer', async () => {
    const { deps } = fakes({ lucia: { accountId: 'clinica', role: 'agent' } });
    expect(await accountClaims(deps, 'lucia', 'TokenGeneration_RefreshTokens')).toEqual({ [ACCOUNT_CLAIMS.account]: 'clinica', [ACCOUNT_CLAIMS.role]: 'agent' });
  });

  it.each(['TokenGeneration_Authentication', 'TokenGeneration_HostedAuth', 'TokenGeneration_NewPasswordChallenge', 'TokenGeneration_AuthenticateDevice'])(
    'a sign-in (%s) is logged once, in the account the person signs in to',
    async (source) => {
      const { deps, logged } = fakes({ lucia: { accountId: 'clinica', role: 'admin' } });
      await accountClaims(deps, 'lucia', source);
      expect(logged).toEqual([{ accountId: 'clinica', entry: { action: 'member.signed_in', actor: { kind: 'member', id: 'lucia' }, object: null } }]);
    },
  );

  it('a refresh is not a sign-in: nothing is logged', async () => {
    const { deps, logged } = fakes({ lucia: { accountId: 'clinica', role: 'agent' } });
    await accountClaims(deps, 'lucia', 'TokenGeneration_RefreshTokens');
    expect(logged).toEqual([]);
  });

  it('a directory that fails throws: Cognito then refuses the token instead of issuing one for the wrong account', async () => {
    const { deps, logged } = fakes({}, { directoryFails: true });
    await expect(accountClaims(deps, 'lucia', 'TokenGeneration_Authentication')).rejects.toThrow('DynamoDB is unreachable');
    expect(logged).toEqual([]);
  });

  it('a log write that fails does not block the sign-in (it is reported)', async () => {
    const { deps, errors } = fakes({ lucia: { accountId: 'clinica', role: 'agent' } }, { logFails: true });
    expect(await accountClaims(deps, 'lucia', 'TokenGeneration_Authentication')).toEqual({ [ACCOUNT_CLAIMS.account]: 'clinica', [ACCOUNT_CLAIMS.role]: 'agent' });
    expect(errors).toHaveLength(1);
  });
});
