/**
 * What the sign-in, account and HTTP layers answer a person (issue 29): here in the contract,
 * beside every other catalogue, so the UI translates each of them (the sign-in pages from
 * i18n/es.json's serverMessages, the app from i18n/server.es.json) and the test that walks every
 * contract catalogue (frontend/src/app/serverTexts.test.ts) fails when one has no Spanish.
 * English here: API clients read them as they are. Browser-safe.
 */

/** Sign-up, login, Google sign-in and password reset (domain/auth/service.ts). */
export const authMessages = {
  codeSent: 'Verification code sent to your email!',
  accountExists: 'An account with this email already exists',
  googleAccountUsesPassword: 'An account with this email already exists. Please log in with your email and password.',
  invalidCredentials: 'Invalid email or password',
  registered: 'Registration successful',
  loggedIn: 'Login successful',
  sessionExpired: 'Session expired. Please log in again.',
  resetSent: 'If an account exists for this email, a reset code has been sent.',
  passwordReset: 'Password reset successfully. Please log in with your new password.',
  /** A Google credential that failed verification (adapters/cognito.ts). */
  googleLoginFailed: 'Google login failed: the Google credential is invalid or expired',
  googleNotConfigured: 'Google sign-in is not configured',
  /** Cognito could not run a sign-in trigger (e.g. the pre-token one could not read the person's team): no tokens were issued. */
  signInUnavailable: 'Signing in is not possible right now. Please try again in a minute.',
} as const;

/** The one-time codes' refusals (domain/auth/codes.ts). The reset form never says which refusal it was. */
export const codeMessages = {
  verificationInvalid: 'Invalid verification code',
  verificationExpired: 'Verification code has expired. Please request a new one.',
  verificationTooManyAttempts: 'Too many incorrect attempts. Please request a new verification code.',
  resetInvalid: 'Invalid or expired reset code',
} as const;

/** The sign-in throttles (domain/auth/throttle.ts; the WAF's own 429 in infra/lib/edge.ts). */
export const signInLimitMessages = {
  tooManyLogins: (minutes: number | string) => `Too many failed login attempts. Please try again in ${minutes} minutes.`,
  tooManyLoginsFromClient: (minutes: number | string) => `Too many failed login attempts from your network. Please try again in ${minutes} minutes.`,
  tooManySignInRequests: 'Too many sign-in requests from your network. Please try again in a few minutes.',
  codeEmailsSeconds: (seconds: number | string) => `Too many code requests for this email. Please try again in ${seconds} seconds.`,
  codeEmailsMinutes: (minutes: number | string) => `Too many code requests for this email. Please try again in ${minutes} minutes.`,
} as const;

/** The signed-in account: profile, settings, password, avatar (domain/account). */
export const accountMessages = {
  userUpdated: 'User updated successfully',
  profileUpdated: 'Profile updated successfully',
  passwordUpdated: 'Password updated successfully',
  loggedOut: 'Logged out successfully',
  currentPasswordIncorrect: 'Current password is incorrect',
  samePassword: 'New password must be different from the current password',
  googleAccount: 'This account signs in with Google and has no password to change',
  avatarUpdated: 'Avatar updated successfully',
  userNotFound: 'User not found',
} as const;

export const avatarMessages = {
  required: 'Avatar image is required',
  badType: 'Avatar must be a PNG, JPEG, WebP or GIF image',
  tooLarge: 'Avatar must be 2 MB or smaller',
} as const;

/** What the HTTP layer itself answers (http/handler.ts, http/multipart.ts, http/api-key-auth.ts). */
export const httpMessages = {
  authenticationRequired: 'Authentication required',
  unauthorized: 'Unauthorized',
  invalidJson: 'Request body must be valid JSON',
  invalidRequest: 'Invalid request',
  notFound: 'Not found',
  internalError: 'Internal server error',
  notMultipart: 'Request must be multipart/form-data',
  multipartMalformed: 'The upload could not be read: the multipart/form-data body is malformed or incomplete',
} as const;
