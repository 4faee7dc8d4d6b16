/**
 * The CDK app. Deploy-time parameters are read here and only here, from CDK context
 * (`cdk deploy -c mailFrom="..."`) or the environment (AGENTDESK_MAIL_FROM=...), with
 * defaults that let `cdk synth` run with none.
 *
 *   mailFrom         AGENTDESK_MAIL_FROM          "AgentDesk <no-reply@example.com>"
 *   googleClientId   AGENTDESK_GOOGLE_CLIENT_ID   "" (Google sign-in off)
 *   whatsappUserIds  AGENTDESK_WHATSAPP_USER_IDS  "" (optional rollout list of Cognito subs; "" = WhatsApp for every account)
 *   domainName       AGENTDESK_DOMAIN_NAME        unset (use the CloudFront domain)
 *   certificateArn   AGENTDESK_CERTIFICATE_ARN    required with domainName (ACM, us-east-1)
 *   logLevel         AGENTDESK_LOG_LEVEL          "INFO"
 *   stackName        AGENTDESK_STACK_NAME         "AgentDesk"
 *   stripeSecretName AGENTDESK_STRIPE_SECRET_NAME "agentdesk/stripe" (Secrets Manager; read at runtime)
 *   pushSecretName   AGENTDESK_PUSH_SECRET_NAME   "agentdesk/web-push" (Web Push VAPID keys; read at runtime)
 *   googleCalendarSecretName AGENTDESK_GOOGLE_CALENDAR_SECRET_NAME "agentdesk/google-calendar" (Google
 *                    Calendar OAuth client: clientId, clientSecret; read at runtime)
 *   wafRatePerIpPer5Min AGENTDESK_WAF_RATE_PER_IP 2000 (WAF: requests per IP per 5 minutes, webhooks excluded)
 *   voiceRelayProvisionedConcurrency AGENTDESK_VOICE_RELAY_PROVISIONED_CONCURRENCY 0 (voice-relay
 *                    instances kept warm, billed while deployed; 0 = none)
 *   openaiTranscriptionModel AGENTDESK_OPENAI_TRANSCRIPTION_MODEL "" (the model that transcribes customers'
 *                    voice notes, e.g. whisper-1; "" = gpt-4o-mini-transcribe, functions/src/config.ts)
 */
import fs from 'node:fs';
import path from 'node:path';
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { repoRoot } from '../lib/bundling.js';
import { AgentDeskStack, defaultParameters, type AgentDeskParameters } from '../lib/stack.js';

const app = new App();

function param(name: string, envName: string): string | undefined {
  const fromContext: unknown = app.node.tryGetContext(name);
  if (typeof fromContext === 'string' && fromContext !== '') return fromContext;
  const fromEnv = process.env[envName];
  return fromEnv !== undefined && fromEnv !== '' ? fromEnv : undefined;
}

const logLevels = ['DEBUG', 'INFO', 'WARN', 'ERROR'] as const;
const logLevel = (param('logLevel', 'AGENTDESK_LOG_LEVEL') ?? defaultParameters.logLevel).toUpperCase();
if (!(logLevels as readonly string[]).includes(logLevel)) {
  throw new Error(`logLevel must be one of ${logLevels.join(', ')}, got "${logLevel}"`);
}

const domainName = param('domainName', 'AGENTDESK_DOMAIN_NAME');
const certificateArn = param('certificateArn', 'AGENTDESK_CERTIFICATE_ARN');
if (domainName && !certificateArn) {
  throw new Error('domainName needs certificateArn (an ACM certificate in us-east-1 covering it)');
}

const distDir = path.join(repoRoot, 'frontend', 'dist');
const siteDir = fs.existsSync(path.join(distDir, 'index.html')) ? distDir : undefined;
if (!siteDir) {
  console.warn(
    '[agentdesk] frontend/dist/index.html not found: the site content will NOT be deployed ' +
      '(run `npm run build -w frontend` before `cdk deploy`). Synth and the infra tests do not need it.',
  );
}

/** AWS WAF rate-based rules take 10 to 2,000,000,000 requests per evaluation window. */
function wafRate(value: string | undefined): number {
  if (value === undefined) return defaultParameters.wafRatePerIpPer5Min;
  const rate = Number(value);
  if (!Number.isInteger(rate) || rate < 10 || rate > 2_000_000_000) {
    throw new Error(`wafRatePerIpPer5Min must be a whole number from 10 to 2,000,000,000 (got "${value}")`);
  }
  return rate;
}

/** Provisioned concurrency: a whole number; 0 turns it off. */
function provisionedConcurrency(value: string | undefined): number {
  if (value === undefined) return defaultParameters.voiceRelayProvisionedConcurrency;
  const count = Number(value);
  if (!Number.isInteger(count) || count < 0 || count > 1000) {
    throw new Error(`voiceRelayProvisionedConcurrency must be a whole number from 0 to 1000 (got "${value}")`);
  }
  return count;
}

/** An OpenAI model id ("gpt-4o-mini-transcribe", "whisper-1"): letters, digits, dots, dashes, underscores, colons. */
function modelName(value: string | undefined): string {
  if (value === undefined) return defaultParameters.openaiTranscriptionModel;
  if (!/^[A-Za-z0-9._:-]{1,100}$/.test(value)) throw new Error(`openaiTranscriptionModel must be an OpenAI model id like whisper-1 (got "${value}")`);
  return value;
}

const parameters: AgentDeskParameters = {
  ...defaultParameters,
  mailFrom: param('mailFrom', 'AGENTDESK_MAIL_FROM') ?? defaultParameters.mailFrom,
  googleClientId: param('googleClientId', 'AGENTDESK_GOOGLE_CLIENT_ID') ?? defaultParameters.googleClientId,
  whatsappUserIds: param('whatsappUserIds', 'AGENTDESK_WHATSAPP_USER_IDS') ?? defaultParameters.whatsappUserIds,
  logLevel: logLevel as AgentDeskParameters['logLevel'],
  stripeSecretName: param('stripeSecretName', 'AGENTDESK_STRIPE_SECRET_NAME') ?? defaultParameters.stripeSecretName,
  pushSecretName: param('pushSecretName', 'AGENTDESK_PUSH_SECRET_NAME') ?? defaultParameters.pushSecretName,
  googleCalendarSecretName: param('googleCalendarSecretName', 'AGENTDESK_GOOGLE_CALENDAR_SECRET_NAME') ?? defaultParameters.googleCalendarSecretName,
  wafRatePerIpPer5Min: wafRate(param('wafRatePerIpPer5Min', 'AGENTDESK_WAF_RATE_PER_IP')),
  voiceRelayProvisionedConcurrency: provisionedConcurrency(
    // -c gives a string; a number in cdk.json's context is taken as it is.
    typeof app.node.tryGetContext('voiceRelayProvisionedConcurrency') === 'number'
      ? String(app.node.tryGetContext('voiceRelayProvisionedConcurrency'))
      : param('voiceRelayProvisionedConcurrency', 'AGENTDESK_VOICE_RELAY_PROVISIONED_CONCURRENCY'),
  ),
  openaiTranscriptionModel: modelName(param('openaiTranscriptionModel', 'AGENTDESK_OPENAI_TRANSCRIPTION_MODEL')),
  customDomain: domainName && certificateArn ? { domainName, certificateArn } : undefined,
  siteDir,
};

new AgentDeskStack(app, param('stackName', 'AGENTDESK_STACK_NAME') ?? 'AgentDesk', {
  description: 'AgentDesk: AI agents for WhatsApp and phone calls (serverless)',
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
  parameters,
});

// cdk-nag AwsSolutions: synthesis fails on any finding that is not acknowledged with a reason.
Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
