/**
 * Stands in for `@aws-sdk/credential-provider-node` in the Lambda bundles only (an esbuild
 * alias in infra/lib/bundling.ts); local runs and tests use the SDK's full default chain.
 *
 * Lambda always gives a function its role's credentials in the environment
 * (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN), so the rest of the default
 * chain (SSO, STS web identity, INI files, IMDS: two nested SDK clients, ~90 KB minified)
 * can never be used there and only slows every cold start. Read here directly rather than with
 * @aws-sdk/credential-provider-env's fromEnv, whose error class and feature tracking bring
 * ~16 KB of the SDK's core into functions that no longer use an SDK client (issue 28).
 */
export const defaultProvider = () => async () => {
  // eslint-disable-next-line no-restricted-properties -- the role's credentials are Lambda's to set (and renew), not configuration: read where the SDK reads them
  const { AWS_ACCESS_KEY_ID: accessKeyId, AWS_SECRET_ACCESS_KEY: secretAccessKey, AWS_SESSION_TOKEN: sessionToken } = process.env;
  if (!accessKeyId || !secretAccessKey) throw new Error('Unable to find environment variable credentials.');
  return { accessKeyId, secretAccessKey, ...(sessionToken ? { sessionToken } : {}) };
};
