/**
 * One API Gateway WebSocket API per entry of the manifest's `socketApis` (functions/src/routes.ts):
 * its function (built like every other), the $connect, $disconnect and $default routes to it, and
 * a stage 'live' with access logs and throttling. Other functions reach it through their needs
 * ('sockets:<name>', 'invoke:<name>' in needs.ts), from `resources`.
 *
 * No dependency cycle with the functions that invoke it: those reference this function and API;
 * this function references only its own API (URL, @connections grant), never them nor its own
 * name (a Lambda environment naming its own function would be a circular reference), so no fixed
 * function name is needed.
 */
import { Duration, Stack, Validations } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import { WebSocketLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { SOCKET_ROUTE_KEYS, socketApis, type SocketApiDef, type SocketApiName, type SocketRouteKey } from '../../functions/src/routes.js';
import type { Throttle } from './api.js';
import { AppFunction } from './app-function.js';
import { applyNeeds, type SharedResources, type SocketResources } from './needs.js';

export const socketNames = Object.keys(socketApis) as SocketApiName[];

export function socketDef(name: SocketApiName): SocketApiDef {
  return socketApis[name];
}

export const SOCKET_STAGE_NAME = 'live';
/** The alias API Gateway invokes when the function has provisioned concurrency. */
export const PROVISIONED_ALIAS_NAME = 'live';
/** API Gateway's longest wait for an integration; a socket function may run on after it (it posts, it does not answer). */
export const SOCKET_INTEGRATION_TIMEOUT_SECONDS = 29;

/** Why each route has no API Gateway authorizer (cdk-nag APIG4). */
export const socketRouteReasons: Record<SocketRouteKey, string> = {
  $connect:
    "WebSocket handshake from Twilio ConversationRelay, which cannot send a Cognito token or an API key: the function verifies X-Twilio-Signature (HMAC-SHA1 of the user's auth token over the wss URL it called) before storing anything, and answers 403 (connection refused) when it does not match.",
  $disconnect:
    'API Gateway WebSocket APIs accept an authorizer on $connect only; $disconnect comes from API Gateway for a connection whose $connect was verified.',
  $default:
    'API Gateway WebSocket APIs accept an authorizer on $connect only; $default frames arrive only on a connection whose $connect passed the X-Twilio-Signature check, and the function looks the call up by connection id.',
};

/** Access-log line per connection event (JSON for Logs Insights); requestId is required by the CDK. */
export const socketAccessLogFormat = AccessLogFormat.custom(
  JSON.stringify({
    requestId: '$context.requestId',
    time: '$context.requestTime',
    eventType: '$context.eventType',
    routeKey: '$context.routeKey',
    connectionId: '$context.connectionId',
    status: '$context.status',
    ip: '$context.identity.sourceIp',
    integrationStatus: '$context.integrationStatus',
    integrationLatency: '$context.integrationLatency',
    error: '$context.error.message',
    integrationError: '$context.integrationErrorMessage',
  }),
);

export interface SocketsProps {
  logRetention: logs.RetentionDays;
  /** Stage default for connections and incoming frames (the provider class: callers are Twilio's edge). */
  throttle: Throttle;
  /**
   * Provisioned concurrency per socket API (0 or absent: none). When set, API Gateway and the
   * warm-up invoke an alias 'live' of the function's current version with that many instances kept initialised.
   */
  provisionedConcurrency?: Partial<Record<SocketApiName, number>>;
}

export interface SocketsFunctionsProps {
  resources: SharedResources;
  /** Variables every function gets (APP_URL, LOG_LEVEL). */
  baseEnvironment: Record<string, string>;
}

export class Sockets extends Construct {
  readonly apis = {} as Record<SocketApiName, apigw.WebSocketApi>;
  readonly stages = {} as Record<SocketApiName, apigw.WebSocketStage>;
  readonly functions = {} as Record<SocketApiName, AppFunction>;
  /** The provisioned-concurrency alias, for the APIs that have one. */
  readonly aliases: Partial<Record<SocketApiName, lambda.Alias>> = {};
  /** What other functions' needs use (needs.ts). */
  readonly resources = {} as Record<SocketApiName, SocketResources>;

  constructor(scope: Construct, id: string, props: SocketsProps) {
    super(scope, id);
    for (const name of socketNames) {
      const def = socketDef(name);
      const provisioned = props.provisionedConcurrency?.[name] ?? 0;
      if (!Number.isInteger(provisioned) || provisioned < 0) {
        throw new Error(`Provisioned concurrency of ${name} must be a whole number ≥ 0 (got ${provisioned})`);
      }
      const fn = new AppFunction(this, name, {
        entry: def.entry,
        description: `WebSocket ${name}: ${def.description}`,
        timeoutSeconds: def.timeout,
        memoryMb: def.memoryMb ?? 512,
        environment: {},
        logRetention: props.logRetention,
      });
      let target: lambda.IFunction = fn.fn;
      if (provisioned > 0) {
        const alias = new lambda.Alias(this, `${name}-alias`, {
          aliasName: PROVISIONED_ALIAS_NAME,
          version: fn.fn.currentVersion,
          provisionedConcurrentExecutions: provisioned,
          description: `${name} with ${provisioned} instance(s) kept initialised (no cold start on a call's first frames)`,
        });
        this.aliases[name] = alias;
        target = alias;
      }

      const integration = (route: SocketRouteKey) =>
        new WebSocketLambdaIntegration(`${name}${route}`, target, { timeout: Duration.seconds(SOCKET_INTEGRATION_TIMEOUT_SECONDS) });
      // Every frame goes to $default (the function reads its `type`); no route per type yet.
      const api = new apigw.WebSocketApi(this, `${name}-api`, {
        apiName: `${Stack.of(this).stackName}-${name}`,
        routeSelectionExpression: '$request.body.type',
        description: `AgentDesk ${name}: ${def.description}`.slice(0, 1024),
        connectRouteOptions: { integration: integration('$connect') },
        disconnectRouteOptions: { integration: integration('$disconnect') },
        defaultRouteOptions: { integration: integration('$default') },
      });
      for (const route of SOCKET_ROUTE_KEYS) {
        const created = api.node.tryFindChild(`${route}-Route`);
        if (!created) throw new Error(`No ${route} route created for the ${name} WebSocket API`);
        Validations.of(created).acknowledge({ id: 'AwsSolutions-APIG4', reason: `${name} ${route}: ${socketRouteReasons[route]}` });
      }

      const accessLogs = new logs.LogGroup(this, `${name}-access-logs`, { retention: props.logRetention });
      const stage = new apigw.WebSocketStage(this, `${name}-stage`, {
        webSocketApi: api,
        stageName: SOCKET_STAGE_NAME,
        autoDeploy: true,
        throttle: props.throttle,
        accessLogSettings: { destination: new apigw.LogGroupLogDestination(accessLogs), format: socketAccessLogFormat },
      });

      this.apis[name] = api;
      this.stages[name] = stage;
      this.functions[name] = fn;
      this.resources[name] = {
        url: stage.url,
        connectionsUrl: stage.callbackUrl,
        connectionsArn: `${Stack.of(this).formatArn({ service: 'execute-api', resource: api.apiId })}/${stage.stageName}/*/@connections/*`,
        target,
      };
    }
  }

  /**
   * Grants and environment of the socket functions. Separate from the constructor (like
   * Api.addManifestRoutes) because their needs are read from `resources`, which holds these APIs.
   */
  addNeeds(props: SocketsFunctionsProps): void {
    for (const name of socketNames) {
      const fn = this.functions[name].fn;
      const env = { ...props.baseEnvironment, ...applyNeeds(fn, socketDef(name).needs, props.resources) };
      for (const [key, value] of Object.entries(env)) fn.addEnvironment(key, value);
    }
  }
}
