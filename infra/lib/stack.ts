/**
 * AgentDesk: the whole product in one stack. Everything that varies per route, worker or
 * table index comes from the manifests in functions/; deploy-time parameters arrive as
 * props (read from context/env only in bin/app.ts).
 */
import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import * as logs from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { Api, type Throttle, type ThrottleClass } from './api.js';
import { Auth } from './auth.js';
import { Data } from './data.js';
import { edgeWebAcl, type EdgeStack, type EdgeWebAcl } from './edge.js';
import type { SharedResources } from './needs.js';
import { Site, type CustomDomain } from './site.js';
import { Schedules } from './schedules.js';
import { Sockets, socketNames } from './sockets.js';
import { Queues, Workers, workerNames } from './workers.js';

export interface AgentDeskParameters {
  /** Sender of product e-mail, "Name <address>"; the address (or its domain) must be verified in SES. */
  mailFrom: string;
  /** Google OAuth client id for Google sign-in ('' disables it). */
  googleClientId: string;
  /** Optional WhatsApp rollout list (issue 29 item 7): comma-separated Cognito subs; '' (the default) = every account sees WhatsApp. */
  whatsappUserIds: string;
  customDomain?: CustomDomain;
  logLevel: 'DEBUG' | 'INFO' | 'WARN' | 'ERROR';
  /** Built frontend (frontend/dist); when absent the site content is not (re)deployed. */
  siteDir?: string;
  /**
   * HTTP API throttling per route class (api.ts throttleClassOf): 'app' is the stage default,
   * 'public' applies to each sign-in / code-send API Gateway route, 'webhook' to each provider
   * webhook API Gateway route (a greedy one, e.g. POST /api/webhooks/twilio/{proxy+}, is one bucket).
   */
  apiThrottle: Record<ThrottleClass, Throttle>;
  /**
   * Name of the Secrets Manager secret holding the Stripe configuration (JSON: secretKey,
   * webhookSecret, priceStarter, priceProfessional, priceEnterprise). The Stripe functions get
   * only its name and read it at runtime: until it exists (README: Connecting Stripe), billing
   * answers 502 and the Stripe webhook 500.
   */
  stripeSecretName: string;
  /**
   * Name of the Secrets Manager secret holding the Web Push VAPID key pair (JSON: publicKey,
   * privateKey, subject; README: Web Push). The notifications function and the web-push worker get
   * only its name and read it at runtime: until it exists, push routes answer 503 and pushes are logged.
   */
  pushSecretName: string;
  /**
   * Name of the Secrets Manager secret holding the Google Calendar OAuth client (JSON: clientId,
   * clientSecret; README: Google Calendar). Read at runtime: until it exists, the Integrations
   * page says Google Calendar is not set up and availability has no Google busy times.
   */
  googleCalendarSecretName: string;
  /** Requests per IP per 5 minutes the WAF allows before blocking that IP (webhooks excluded). */
  wafRatePerIpPer5Min: number;
  /**
   * Instances of the voice-relay WebSocket function kept initialised (provisioned concurrency,
   * billed while deployed); 0 = none: the incoming-call webhook's warm-up is all there is.
   */
  voiceRelayProvisionedConcurrency: number;
  /**
   * OpenAI model that transcribes customers' voice notes (issue 31), e.g. 'whisper-1';
   * '' (the default) = the functions' own default (gpt-4o-mini-transcribe, functions/src/config.ts).
   */
  openaiTranscriptionModel: string;
}

export const defaultParameters: AgentDeskParameters = {
  mailFrom: 'AgentDesk <no-reply@example.com>',
  googleClientId: '',
  whatsappUserIds: '',
  logLevel: 'INFO',
  apiThrottle: {
    app: { rateLimit: 50, burstLimit: 100 },
    public: { rateLimit: 5, burstLimit: 10 },
    webhook: { rateLimit: 100, burstLimit: 200 },
  },
  stripeSecretName: 'agentdesk/stripe',
  pushSecretName: 'agentdesk/web-push',
  googleCalendarSecretName: 'agentdesk/google-calendar',
  wafRatePerIpPer5Min: 2000,
  voiceRelayProvisionedConcurrency: 0,
  openaiTranscriptionModel: '',
};

export interface AgentDeskStackProps extends StackProps {
  parameters: AgentDeskParameters;
}

export class AgentDeskStack extends Stack {
  readonly data: Data;
  readonly auth: Auth;
  readonly queues: Queues;
  readonly api: Api;
  readonly workers: Workers;
  readonly sockets: Sockets;
  readonly schedules: Schedules;
  readonly site: Site;
  readonly waf: EdgeWebAcl;
  /** The us-east-1 stack holding the web ACL when this stack is in another region. */
  readonly edgeStack?: EdgeStack;

  constructor(scope: Construct, id: string, props: AgentDeskStackProps) {
    super(scope, id, props);
    const p = props.parameters;
    const logRetention = logs.RetentionDays.ONE_MONTH;

    this.data = new Data(this, 'Data');
    this.auth = new Auth(this, 'Auth', { table: this.data.table, googleClientId: p.googleClientId, logLevel: p.logLevel, logRetention });
    this.queues = new Queues(this, 'Queues');
    // The WebSocket APIs exist before any function, so any function can be granted their needs.
    this.sockets = new Sockets(this, 'Sockets', {
      logRetention,
      throttle: p.apiThrottle.webhook,
      provisionedConcurrency: { 'voice-relay': p.voiceRelayProvisionedConcurrency },
    });

    const resources: SharedResources = {
      table: this.data.table,
      uploads: this.data.uploads,
      dataKey: this.data.dataKey,
      secretsKey: this.data.secretsKey,
      userPool: this.auth.userPool,
      userPoolClient: this.auth.client,
      queues: this.queues.queues,
      mailFrom: p.mailFrom,
      googleClientId: p.googleClientId,
      whatsappUserIds: p.whatsappUserIds,
      stripeSecretName: p.stripeSecretName,
      pushSecretName: p.pushSecretName,
      googleCalendarSecretName: p.googleCalendarSecretName,
      sockets: this.sockets.resources,
      openaiTranscriptionModel: p.openaiTranscriptionModel,
    };

    // The HTTP API resource exists before the site (CloudFront forwards /api/* to it); the
    // functions read the site's URL, which only depends on the API id, so there is no cycle.
    this.api = new Api(this, 'Api', {
      userPool: this.auth.userPool,
      userPoolClient: this.auth.client,
      logRetention,
      throttle: p.apiThrottle,
    });
    ({ waf: this.waf, edgeStack: this.edgeStack } = edgeWebAcl(this, { ratePerIpPer5Min: p.wafRatePerIpPer5Min, logRetention }));
    this.site = new Site(this, 'Site', {
      api: this.api.httpApi,
      logBucket: this.data.logs,
      customDomain: p.customDomain,
      // Presigned upload and avatar URLs are virtual-host style (s3-presigner.ts). A wildcard for
      // the bucket: naming it would close a cycle (the bucket's CORS names the distribution).
      cspSources: { uploads: [`https://*.s3.${this.region}.${this.urlSuffix}`] },
      webAclArn: this.waf.webAcl.attrArn,
    });
    const baseEnvironment = { APP_URL: this.site.url, LOG_LEVEL: p.logLevel };
    this.api.addManifestRoutes({ resources, baseEnvironment });
    this.sockets.addNeeds({ resources, baseEnvironment });
    this.workers = new Workers(this, 'Workers', {
      queues: this.queues,
      resources,
      baseEnvironment,
      logRetention,
    });
    this.schedules = new Schedules(this, 'Schedules', { resources, baseEnvironment, logRetention });
    this.data.allowBrowserUploadsFrom(this.site.url);
    if (p.siteDir) this.site.deploy(p.siteDir, { googleClientId: p.googleClientId });

    new CfnOutput(this, 'AppUrl', { value: this.site.url, description: 'The app (and {AppUrl}/api/webhooks/... for providers)' });
    new CfnOutput(this, 'DistributionDomainName', { value: this.site.distribution.distributionDomainName, description: 'Point a custom domain (CNAME/alias) here' });
    new CfnOutput(this, 'ApiEndpoint', { value: this.api.httpApi.apiEndpoint });
    for (const name of socketNames) {
      new CfnOutput(this, `${pascalCase(name)}Url`, { value: this.sockets.stages[name].url, description: `${name} WebSocket API (wss://…/${this.sockets.stages[name].stageName})` });
    }
    // Issue 34: what a redrive names (aws sqs start-message-move-task --source-arn <this>; README).
    for (const name of workerNames) {
      new CfnOutput(this, `${pascalCase(name)}DeadLetterQueueArn`, {
        value: this.queues.deadLetterQueues[name].queueArn,
        description: `${name} dead-letter queue: messages that failed on every try; redrive them to ${name} with aws sqs start-message-move-task`,
      });
    }
    new CfnOutput(this, 'UserPoolId', { value: this.auth.userPool.userPoolId });
    new CfnOutput(this, 'UserPoolClientId', { value: this.auth.client.userPoolClientId });
    new CfnOutput(this, 'TableName', { value: this.data.table.tableName });
    new CfnOutput(this, 'UploadsBucket', { value: this.data.uploads.bucketName });
    // Issue 33: what a restored table is encrypted with (README: restoring from a backup).
    new CfnOutput(this, 'DataKeyArn', { value: this.data.dataKey.keyArn, description: "Customer-managed KMS key of the table and the uploads bucket (restore with --sse-specification-override ...KMSMasterKeyId=<this>)" });
    new CfnOutput(this, 'SiteBucket', { value: this.site.bucket.bucketName });
  }
}

/** `voice-relay` → `VoiceRelay` (output ids). */
function pascalCase(name: string): string {
  return name.replace(/(^|-)(\w)/g, (_m, _d: string, c: string) => c.toUpperCase());
}
