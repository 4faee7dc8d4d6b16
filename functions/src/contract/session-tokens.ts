/**
 * Session token lifetimes (issue 28). The JWT authorizer checks an access token's signature and
 * expiry only, so after a logout, password change or reset the old one keeps working for at most
 * `accessMinutes` (5 is Cognito's minimum); the app refreshes it before then, and the sign-out
 * revoked the refresh tokens. The user pool client (infra/lib/auth.ts) and cognito-local's
 * client (functions/local/services.ts) read them from here. A module of its own (re-exported by
 * contract/auth.ts): the account deletion's sweep delay reads it in bundles that carry no auth schema
 * (the Stripe webhook).
 */
export const SESSION_TOKENS = { accessMinutes: 5, idMinutes: 5, refreshDays: 30 } as const;
