/**
 * The HTTP API and its Lambda functions, built from the route manifest
 * (functions/src/routes.ts): one function per route group, and the API Gateway routes of the
 * route plan (functions/src/route-plan.ts) that serve the manifest's routes.
 * 'user' routes carry the Cognito JWT authorizer, 'userOrApiKey' routes the API authorizer
 * (a Lambda: Cognito token or API key); the other kinds authenticate in the handler.
 *
 * Why a route plan and not one API Gateway route per manifest route: at ~150 routes the stack
 * had 433 of CloudFormation's 500 resources per stack, and HTTP APIs have a default quota of 300
 * routes; the next features add ~60 routes. The options weighed:
 * - one route per manifest route (before): ~1 resource per route, hits both limits;
 * - a single `$default` / `ANY /api/{proxy+}` route into one router function: one function for
 *   everything, and one authorizer for all (public, webhook and API-key routes would have to
 *   authenticate in code) and one throttle bucket: no;
 * - nested stacks: room for resources, not for the 300 routes of one API, and cross-stack
 *   references for every function;
 * - (chosen) greedy routes `ANY /api/<prefix>/{proxy+}` (one method when the routes share it),
 *   one per prefix where every manifest route under it has the same function, the same auth kind
 *   (so the same authorizer) and so the same throttle class, and explicit routes for the routes
 *   that differ (a public or API-key route under a user prefix, another function's routes); routes
 *   of one function and auth kind on one path share an `ANY` route. API Gateway picks a full match
 *   before a greedy route and the most specific greedy route, so explicit routes sit next to
 *   greedy ones; the plan keeps explicit any route whose requests another route could take under
 *   any reading of "most specific". The function resolves the manifest route from the method and
 *   path among the routes of THAT API Gateway route only (functions/src/http/handler.ts), so no
 *   request reaches a route behind a weaker authorizer than its own. ~150 routes become ~65.
 * Throttling stays per class: per-route settings on each public and webhook route (greedy or
 * not); the app routes draw on the stage default.
 */
import { Duration, Stack, Validations } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaAuthorizer, HttpLambdaResponseType, HttpUserPoolAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { routePlan, type ThrottleClass } from '../../functions/src/route-plan.js';
import { apiAuthorizer, routeGroups, type AuthKind, type RouteGroup, type RouteGroupName } from '../../functions/src/routes.js';
import { AppFunction } from './app-function.js';
import { applyNeeds, type SharedResources } from './needs.js';

/** API Gateway stops waiting after 30 s; leave the function a second less. */
export const API_MAX_TIMEOUT = 29;

export const groupNames = Object.keys(routeGroups) as RouteGroupName[];

export function groupDef(name: RouteGroupName): RouteGroup {
  return routeGroups[name];
}

/** Why a route without the JWT authorizer is still authenticated (cdk-nag APIG4). */
export const unauthorizedRouteReasons: Record<Exclude<AuthKind, 'user' | 'userOrApiKey'>, string> = {
  public:
    'Public by design: sign-up, login, token refresh, Google sign-in and password reset run before the caller has a token; the handler rate-limits per e-mail.',
  webhook:
    "Webhook called by a provider (Stripe, Twilio, WhatsApp) that cannot send a Cognito token; the handler verifies the provider's signature over the raw body before doing anything.",
};

export interface Throttle {
  /** Steady requests per second (token bucket refill). */
  rateLimit: number;
  /** Requests allowed at once (bucket size). */
  burstLimit: number;
}

// Which throttle bucket a route draws from, derived from its auth kind (route-plan.ts).
export { throttleClassOf, type ThrottleClass } from '../../functions/src/route-plan.js';

export interface ApiProps {
  userPool: SharedResources['userPool'];
  userPoolClient: SharedResources['userPoolClient'];
  logRetention: logs.RetentionDays;
  /** API Gateway limits are per route across all callers (per-IP limits are the WAF's). */
  throttle: Record<ThrottleClass, Throttle>;
}

export interface ApiFunctionsProps {
  resources: SharedResources;
  /** Variables every function gets (APP_URL, LOG_LEVEL). */
  baseEnvironment: Record<string, string>;
}

export class Api extends Construct {
  readonly httpApi: apigw.HttpApi;
  readonly stage: apigw.HttpStage;
  readonly functions = {} as Record<RouteGroupName, AppFunction>;
  readonly authorizer: HttpUserPoolAuthorizer;
  /** The public API's Lambda authorizer (set by addManifestRoutes). */
  apiAuthorizerFunction!: AppFunction;

  private readonly logRetention: logs.RetentionDays;
  private readonly throttle: Record<ThrottleClass, Throttle>;

  constructor(scope: Construct, id: string, props: ApiProps) {
    super(scope, id);
    this.logRetention = props.logRetention;
    this.throttle = props.throttle;

    // No CORS: the browser reaches the API through the CloudFront origin (/api/*).
    this.httpApi = new apigw.HttpApi(this, 'HttpApi', {
      description: 'AgentDesk API (served to browsers as {site}/api/*)',
      createDefaultStage: false,
    });

    const accessLogs = new logs.LogGroup(this, 'AccessLogs', { retention: props.logRetention });
    this.stage = this.httpApi.addStage('DefaultStage', {
      stageName: '$default',
      autoDeploy: true,
      throttle: props.throttle.app,
      accessLogSettings: { destination: new apigw.LogGroupLogDestination(accessLogs) },
    });

    this.authorizer = new HttpUserPoolAuthorizer('CognitoJwt', props.userPool, {
      userPoolClients: [props.userPoolClient],
      userPoolRegion: Stack.of(this).region,
    });
  }

  /**
   * One function per route group and the route plan's routes. Separate from the
   * constructor because the functions need the site URL, and the site needs the API.
   */
  addManifestRoutes(props: ApiFunctionsProps): void {
    const { resources } = props;

    const integrations = {} as Record<RouteGroupName, HttpLambdaIntegration>;
    for (const name of groupNames) {
      const def = groupDef(name);
      const fn = new AppFunction(this, name, {
        entry: def.entry,
        description: `API ${name}: ${def.description}`,
        timeoutSeconds: Math.min(def.timeout ?? API_MAX_TIMEOUT, API_MAX_TIMEOUT),
        memoryMb: def.memoryMb ?? 512,
        environment: {},
        logRetention: this.logRetention,
      });
      const env = {
        ...props.baseEnvironment,
        // Which users see the WhatsApp features: plain, non-secret app configuration.
        WHATSAPP_USER_IDS: resources.whatsappUserIds,
        ...applyNeeds(fn.fn, def.needs, resources),
      };
      for (const [key, value] of Object.entries(env)) fn.fn.addEnvironment(key, value);
      this.functions[name] = fn;
      // One invoke permission per function for the whole API (not one per route): a group serves
      // up to ~30 routes, and per-route permissions took the stack to CloudFormation's 500 resources.
      integrations[name] = new HttpLambdaIntegration(`${name}-integration`, fn.fn, { scopePermissionToRoute: false });
    }

    // The public API's authorizer: payload 2.0 simple responses. No identity source and no
    // result cache: a key may come in `Authorization` or `x-api-key`, and an identity source makes
    // API Gateway answer 401 itself when that one header is missing (and key its cache on it
    // alone). The function caches its hash lookups and the JWKS per warm container instead.
    this.apiAuthorizerFunction = new AppFunction(this, 'api-authorizer', {
      entry: apiAuthorizer.entry,
      description: `API authorizer: ${apiAuthorizer.description}`,
      timeoutSeconds: 10,
      memoryMb: 512,
      environment: {},
      logRetention: this.logRetention,
    });
    const authorizerEnv = {
      ...props.baseEnvironment,
      // Only the ids that name the token issuer and audience: no user-pool permission.
      USER_POOL_ID: resources.userPool.userPoolId,
      USER_POOL_CLIENT_ID: resources.userPoolClient.userPoolClientId,
      ...applyNeeds(this.apiAuthorizerFunction.fn, apiAuthorizer.needs, resources),
    };
    for (const [key, value] of Object.entries(authorizerEnv)) this.apiAuthorizerFunction.fn.addEnvironment(key, value);
    const lambdaAuthorizer = new HttpLambdaAuthorizer('ApiAuthorizer', this.apiAuthorizerFunction.fn, {
      responseTypes: [HttpLambdaResponseType.SIMPLE],
      identitySource: [],
      resultsCacheTtl: Duration.seconds(0),
    });

    const routeSettings: Record<string, { ThrottlingRateLimit: number; ThrottlingBurstLimit: number }> = {};
    const cfnStage = this.stage.node.defaultChild as apigw.CfnStage;
    for (const route of routePlan()) {
      const [created] = this.httpApi.addRoutes({
        path: route.path,
        methods: [route.method as apigw.HttpMethod],
        integration: integrations[route.group],
        authorizer: route.auth === 'user' ? this.authorizer : route.auth === 'userOrApiKey' ? lambdaAuthorizer : undefined,
      });
      if (!created) throw new Error(`No route created for ${route.key}`);
      if (route.auth !== 'user' && route.auth !== 'userOrApiKey') {
        const reason = `${route.key}: ${unauthorizedRouteReasons[route.auth]}`;
        // (COG4 is the REST API variant of this rule; it does not apply to HTTP API routes.)
        Validations.of(created).acknowledge({ id: 'AwsSolutions-APIG4', reason });
      }
      if (route.throttle !== 'app') {
        const { rateLimit, burstLimit } = this.throttle[route.throttle];
        routeSettings[route.key] = { ThrottlingRateLimit: rateLimit, ThrottlingBurstLimit: burstLimit };
        // CloudFormation rejects route settings for a route key the API does not have yet.
        cfnStage.addDependency(created.node.defaultChild as apigw.CfnRoute);
      }
    }
    // RouteSettings is an untyped map in CloudFormation (keyed by route key), hence the raw names.
    cfnStage.routeSettings = routeSettings;
  }
}
