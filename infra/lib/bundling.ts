/**
 * The esbuild settings every Lambda bundle is built with. The stack (NodejsFunction) and
 * `npm run bench` both read them from here, so the bench measures what gets deployed.
 *
 * ESM output: @middy/core 6 is ESM-only and ESM lets esbuild tree-shake the AWS SDK's
 * ESM builds (mainFields module first). The banner gives CommonJS dependencies that call
 * `require` (some Powertools / SDK internals) a working one inside the ESM bundle.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { routePlan, sharedRoutes } from '../../functions/src/route-plan.js';
import { apiKeyRouteKeys, routeActivities, routeGroups, routeRoles, routes, subscriptionRouteKeys, webhookVerifications } from '../../functions/src/routes.js';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const functionsDir = path.join(repoRoot, 'functions');
export const lockFile = path.join(repoRoot, 'package-lock.json');

export const nodeTarget = 'node22';

export const esmRequireBanner =
  "import { createRequire as __agentdeskCreateRequire } from 'node:module';" +
  'const require = __agentdeskCreateRequire(import.meta.url);';

/** The one definition; the two views below only translate names. */
export const bundleSettings = {
  minify: true,
  sourceMap: true,
  /** Keep maps small: stack traces need names and lines, not the sources. */
  sourcesContent: false,
  target: nodeTarget,
  format: 'esm' as const,
  mainFields: ['module', 'main'],
  banner: esmRequireBanner,
  /** Bundle everything, AWS SDK included: pinned versions, smaller cold start than the runtime's SDK. */
  externalModules: [] as string[],
  /**
   * Lambda hands functions their credentials in the environment: swap the SDK's default
   * credential chain for the environment provider (see functions/src/adapters/aws/lambda-credentials.ts).
   */
  alias: {
    '@aws-sdk/credential-provider-node': path.join(functionsDir, 'src/adapters/aws/lambda-credentials.ts'),
    /**
     * No SDK call of ours streams events, but HttpProtocol's lazy import of them is inlined into
     * every bundle (~15 KB): see functions/src/adapters/aws/no-event-streams.ts.
     */
    '@smithy/core/event-streams': path.join(functionsDir, 'src/adapters/aws/no-event-streams.ts'),
  } as Record<string, string>,
  /** Build-time constants shared by every function (per-function ones: defineFor()). */
  define: {} as Record<string, string>,
};

/**
 * Build-time constants of the function built from `entry` (relative to functions/ or absolute):
 * the manifest's rules for ITS routes only (paid-feature routes, 'userOrApiKey' routes, webhook
 * verifications, the shared API Gateway routes of the route plan that lead to it), as strings
 * http/route-rules.ts reads instead of importing the whole route manifest (~9 KB in every
 * function otherwise). A function that serves no route gets empty rules.
 */
export function defineFor(entry: string): Record<string, string> {
  const relative = path.isAbsolute(entry) ? path.relative(functionsDir, entry) : entry;
  const groups = new Set(Object.entries(routeGroups).filter(([, g]) => g.entry === relative.split(path.sep).join('/')).map(([name]) => name));
  const served = routes.filter((r) => groups.has(r.group));
  return {
    ...bundleSettings.define,
    'globalThis.AGENTDESK_SUBSCRIPTION_ROUTES': JSON.stringify([...subscriptionRouteKeys(served)].join(',')),
    'globalThis.AGENTDESK_API_KEY_ROUTES': JSON.stringify([...apiKeyRouteKeys(served)].join(',')),
    'globalThis.AGENTDESK_WEBHOOK_VERIFICATIONS': JSON.stringify(JSON.stringify(webhookVerifications(served))),
    'globalThis.AGENTDESK_ROUTE_ROLES': JSON.stringify(JSON.stringify(routeRoles(served))),
    'globalThis.AGENTDESK_ROUTE_ACTIVITIES': JSON.stringify(JSON.stringify(routeActivities(served))),
    // Planned over the whole manifest (a route elsewhere can keep one of these explicit), kept to this function's.
    'globalThis.AGENTDESK_SHARED_ROUTES': JSON.stringify(JSON.stringify(sharedRoutes(routePlan().filter((r) => groups.has(r.group))))),
  };
}

/** Options for esbuild's JS API (used by the bench). */
export function esbuildOptions(entry: string, outfile: string) {
  return {
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node' as const,
    target: bundleSettings.target,
    format: bundleSettings.format,
    minify: bundleSettings.minify,
    sourcemap: bundleSettings.sourceMap,
    sourcesContent: bundleSettings.sourcesContent,
    mainFields: bundleSettings.mainFields,
    banner: { js: bundleSettings.banner },
    external: bundleSettings.externalModules,
    alias: bundleSettings.alias,
    define: defineFor(entry),
    logLevel: 'error' as const,
  };
}
