/**
 * Stands in for `@aws-sdk/credential-provider-node` in the Lambda bundles only (an esbuild
 * alias in infra/lib/bundling.ts); local runs and tests use the SDK's full default chain.
 *
 * Lambda always gives a function its role's credentials in the environment
 * (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN), so the rest of the default
 * chain (SSO, STS web identity, INI files, IMDS: two nested SDK clients, ~90 KB minified)
 * can never be used there and only slows every cold start.
 */
import { fromEnv } from '@aws-sdk/credential-provider-env';

export const defaultProvider = (init?: Parameters<typeof fromEnv>[0]) => fromEnv(init);
