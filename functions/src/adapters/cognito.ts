/**
 * IdentityProvider over a Cognito user pool whose users sign in with their e-mail
 * (UsernameAttributes/signInAliases email): every admin call passes the e-mail as Username.
 *
 * - sign-up: AdminCreateUser (MessageAction SUPPRESS, email_verified) + AdminSetUserPassword Permanent
 * - login: InitiateAuth USER_PASSWORD_AUTH with the app client (no secret); refresh: REFRESH_TOKEN_AUTH
 * - sign out everywhere (logout, password change and reset): AdminUserGlobalSignOut
 * - Google: AdminInitiateAuth CUSTOM_AUTH + AdminRespondToAuthChallenge with the Google credential as
 *   ANSWER; the custom-auth triggers (src/triggers/custom-auth.ts) verify it again inside Cognito.
 *   Locally see cognito-local-google.ts.
 */
import {
  AdminCreateUserCommand,
  AdminDeleteUserCommand,
  AdminGetUserCommand,
  AdminInitiateAuthCommand,
  AdminRespondToAuthChallengeCommand,
  AdminSetUserPasswordCommand,
  AdminUserGlobalSignOutCommand,
  InitiateAuthCommand,
  ListUsersCommand,
  type AuthenticationResultType,
  type CognitoIdentityProviderClient,
} from '@aws-sdk/client-cognito-identity-provider';
import { decodeJwt } from 'jose';
import { authMessages } from '../contract/account-texts.js';
import { SESSION_TOKENS } from '../contract/auth.js';
import { ServiceUnavailableError, UnauthorizedError } from '../domain/errors.js';
import {
  IdentityExistsError,
  IdentityPasswordPolicyError,
  type IdentityProvider,
  type IdentityUser,
  type Tokens,
} from '../domain/auth/ports.js';

export const GOOGLE_LOGIN_FAILED = authMessages.googleLoginFailed;

const errorName = (error: unknown) => (error as { name?: string } | null)?.name ?? '';

/** Wrong e-mail or password, and states that cannot sign in with a password, all read as "no". */
const SIGN_IN_REFUSED = new Set([
  'NotAuthorizedException',
  'InvalidPasswordException', // cognito-local's answer to a wrong password
  'UserNotFoundException',
  'UserNotConfirmedException',
  'PasswordResetRequiredException',
]);

/**
 * A sign-in trigger failed (issue 32: the pre-token-generation trigger could not read the person's
 * membership): Cognito issued no tokens. A passing fault of ours, not the caller's: 503, try again.
 */
const TRIGGER_FAILED = new Set(['UserLambdaValidationException', 'UnexpectedLambdaException', 'InvalidLambdaResponseException']);

/** The error a token request's failure becomes: a trigger's failure is a 503; anything else as it was. */
export function tokenRequestError(error: unknown): unknown {
  return TRIGGER_FAILED.has(errorName(error)) ? new ServiceUnavailableError(authMessages.signInUnavailable, 30) : error;
}

export interface CognitoSettings {
  userPoolId: string;
  clientId: string;
}

/**
 * Seconds the new access token lives: Cognito's ExpiresIn, else (cognito-local omits it) the
 * token's own exp - iat, which holds whatever clock it was issued on (the local session clock may
 * be ahead of this process's).
 */
export function expiresInOf(result: AuthenticationResultType): number {
  if (result.ExpiresIn) return result.ExpiresIn;
  const { exp, iat } = result.AccessToken ? decodeJwt(result.AccessToken) : {};
  return exp && iat ? Math.max(0, exp - iat) : SESSION_TOKENS.accessMinutes * 60;
}

export function tokensOf(result: AuthenticationResultType | undefined): Tokens | null {
  if (!result?.AccessToken || !result.RefreshToken) return null;
  return { accessToken: result.AccessToken, refreshToken: result.RefreshToken, expiresIn: expiresInOf(result) };
}

/**
 * Every user's id (the `sub`), one ListUsers page at a time (60 in AWS; cognito-local answers all
 * at once): the operators' one-off scripts (issue 33: functions/scripts/stamp-retention.ts), never a request path.
 */
export async function* userIdPages(client: CognitoIdentityProviderClient, userPoolId: string): AsyncGenerator<string[]> {
  let token: string | undefined;
  do {
    const out = await client.send(new ListUsersCommand({ UserPoolId: userPoolId, Limit: 60, ...(token ? { PaginationToken: token } : {}) }));
    yield (out.Users ?? []).map((u) => u.Attributes?.find((a) => a.Name === 'sub')?.Value ?? u.Username ?? '').filter(Boolean);
    token = out.PaginationToken;
  } while (token);
}

export class CognitoIdentityProvider implements IdentityProvider {
  constructor(
    protected readonly client: CognitoIdentityProviderClient,
    protected readonly settings: CognitoSettings,
  ) {}

  async findByEmail(email: string): Promise<IdentityUser | null> {
    try {
      const out = await this.client.send(new AdminGetUserCommand({ UserPoolId: this.settings.userPoolId, Username: email }));
      const attr = (name: string) => out.UserAttributes?.find((a) => a.Name === name)?.Value;
      const sub = attr('sub') ?? out.Username;
      if (!sub) return null;
      return { userId: sub, email: (attr('email') ?? email).toLowerCase() };
    } catch (error) {
      if (errorName(error) === 'UserNotFoundException') return null;
      throw error;
    }
  }

  /** The name lives in the profile item only (one source of truth), not in a Cognito attribute. */
  async createUser(input: { email: string; password: string; name: string }): Promise<IdentityUser> {
    let sub: string | undefined;
    try {
      const out = await this.client.send(
        new AdminCreateUserCommand({
          UserPoolId: this.settings.userPoolId,
          Username: input.email,
          MessageAction: 'SUPPRESS',
          UserAttributes: [
            { Name: 'email', Value: input.email },
            { Name: 'email_verified', Value: 'true' },
          ],
        }),
      );
      sub = out.User?.Attributes?.find((a) => a.Name === 'sub')?.Value ?? out.User?.Username;
    } catch (error) {
      if (['UsernameExistsException', 'AliasExistsException'].includes(errorName(error))) throw new IdentityExistsError();
      throw error;
    }
    try {
      await this.setPassword(input.email, input.password);
    } catch (error) {
      await this.deleteUser(input.email).catch(() => undefined);
      throw error;
    }
    if (!sub) throw new Error('AdminCreateUser returned no sub');
    return { userId: sub, email: input.email };
  }

  async signInWithPassword(email: string, password: string): Promise<Tokens | null> {
    try {
      const out = await this.client.send(
        new InitiateAuthCommand({
          AuthFlow: 'USER_PASSWORD_AUTH',
          ClientId: this.settings.clientId,
          AuthParameters: { USERNAME: email, PASSWORD: password },
        }),
      );
      // A challenge (e.g. NEW_PASSWORD_REQUIRED for an admin-created user) is not a sign-in.
      return tokensOf(out.AuthenticationResult);
    } catch (error) {
      if (SIGN_IN_REFUSED.has(errorName(error))) return null;
      throw tokenRequestError(error);
    }
  }

  async signInWithGoogle(email: string, credential: string): Promise<Tokens> {
    try {
      const started = await this.client.send(
        new AdminInitiateAuthCommand({
          UserPoolId: this.settings.userPoolId,
          ClientId: this.settings.clientId,
          AuthFlow: 'CUSTOM_AUTH',
          AuthParameters: { USERNAME: email },
        }),
      );
      if (started.ChallengeName !== 'CUSTOM_CHALLENGE' || !started.Session) throw new UnauthorizedError(GOOGLE_LOGIN_FAILED);
      const answered = await this.client.send(
        new AdminRespondToAuthChallengeCommand({
          UserPoolId: this.settings.userPoolId,
          ClientId: this.settings.clientId,
          ChallengeName: 'CUSTOM_CHALLENGE',
          Session: started.Session,
          ChallengeResponses: { USERNAME: started.ChallengeParameters?.USERNAME ?? email, ANSWER: credential },
        }),
      );
      const tokens = tokensOf(answered.AuthenticationResult);
      if (!tokens) throw new UnauthorizedError(GOOGLE_LOGIN_FAILED);
      return tokens;
    } catch (error) {
      if (SIGN_IN_REFUSED.has(errorName(error))) throw new UnauthorizedError(GOOGLE_LOGIN_FAILED);
      throw tokenRequestError(error);
    }
  }

  async refresh(refreshToken: string) {
    try {
      const out = await this.client.send(
        new InitiateAuthCommand({
          AuthFlow: 'REFRESH_TOKEN_AUTH',
          ClientId: this.settings.clientId,
          AuthParameters: { REFRESH_TOKEN: refreshToken },
        }),
      );
      const result = out.AuthenticationResult;
      if (!result?.AccessToken) return null;
      return {
        accessToken: result.AccessToken,
        expiresIn: expiresInOf(result),
        ...(result.RefreshToken ? { refreshToken: result.RefreshToken } : {}),
      };
    } catch (error) {
      if (SIGN_IN_REFUSED.has(errorName(error))) return null;
      throw tokenRequestError(error);
    }
  }

  async setPassword(email: string, password: string): Promise<void> {
    try {
      await this.client.send(
        new AdminSetUserPasswordCommand({
          UserPoolId: this.settings.userPoolId,
          Username: email,
          Password: password,
          Permanent: true,
        }),
      );
    } catch (error) {
      if (errorName(error) === 'InvalidPasswordException') throw new IdentityPasswordPolicyError();
      throw error;
    }
  }

  /** AdminUserGlobalSignOut revokes the user's refresh tokens (locally: see local/cognito-local.mjs). */
  async signOutEverywhere(email: string): Promise<void> {
    try {
      await this.client.send(new AdminUserGlobalSignOutCommand({ UserPoolId: this.settings.userPoolId, Username: email }));
    } catch (error) {
      if (errorName(error) !== 'UserNotFoundException') throw error;
    }
  }

  async deleteUser(email: string): Promise<void> {
    await this.client.send(new AdminDeleteUserCommand({ UserPoolId: this.settings.userPoolId, Username: email }));
  }
}
