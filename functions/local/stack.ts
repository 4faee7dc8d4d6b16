/**
 * startLocalStack(): the whole product on one machine. Used by `npm start` (start.ts), the
 * integration tests' global setup and the browser e2e setup.
 *
 *   DynamoDB Local (Java child)    cognito-local (Node child)    s3rver, SES mailbox (in-process)
 *   SQS endpoint + dispatcher (in-process)    gateway: API + SPA + /config.json + /_local/*
 *   fake Stripe (in-process, local billing mode: API + checkout/portal pages + signed webhooks)
 *   fake OpenAI (in-process: the default model API of the ChatGPT integration, offline)
 *   fake WhatsApp Graph API (in-process: WHATSAPP_GRAPH_URL of the handlers, offline)
 *   fake Twilio REST API (in-process: TWILIO_API_URL of the handlers; plays simulated calls)
 *   WebSocket APIs on the gateway (/_ws/voice-relay: VOICE_RELAY_URL, VOICE_RELAY_CONNECTIONS_URL)
 *   fake Web Push service (in-process, https: the push endpoints of subscriptions it mints; issue 29)
 *   fake Google OAuth + Calendar API v3 (in-process: the Google Calendar connection, issue 30)
 *   fault proxies in front of s3rver, the SES mailbox, DynamoDB Local (option faultProxies; tests)
 *   Lambda Invoke endpoint (in-process, loopback, a free port): cognito-local's pre-token-generation trigger (issue 32)
 */
import { existsSync, mkdirSync, readFileSync, unlinkSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { config } from '../src/config.js';
import type { PlanId } from '../src/contract/billing.js';
import { workers } from '../src/routes.js';
import { applyHandlerEnv, handlerEnv } from './env.js';
import { startGateway } from './gateway.js';
import type { SocketLimits } from './sockets.js';
import { loadRouteGroup, loadWorker } from './handlers.js';
import { LOCAL_STRIPE_SECRET_KEY, WEBHOOK_PATH, localWebhookSecret, startFakeStripe } from './fake-stripe/server.js';
import { startFakeOpenAi } from './fake-openai/server.js';
import type { StreamDelays } from './fake-openai/stream.js';
import { startFakeWhatsApp } from './fake-whatsapp/server.js';
import { startFakeTwilio } from './fake-twilio/server.js';
import { startFakePush } from './fake-push/server.js';
import { startFakeGoogleCalendar } from './fake-google-calendar/server.js';
import { localVapidKeys } from './vapid.js';
import { PROXIED_SERVICES, startFaultProxy, type FaultProxy, type ProxiedService } from './fault-proxy.js';
import { cognitoAuthorizer } from './jwt-authorizer.js';
import { PRE_TOKEN_FUNCTION, startLambdaEndpoint } from './lambda-endpoint.js';
import { resolvePorts, type PortRequest } from './ports.js';
import {
  ensureTable,
  ensureUserPool,
  startCognito,
  startDynamo,
  startS3,
  startSes,
  type RunningService,
  type Supervision,
} from './services.js';
import { scheduleRunner } from './schedules.js';
import { sessionClock } from './session-clock.js';
import { SqsDispatcher, type DispatcherSnapshot, type SqsHandler } from './sqs-dispatcher.js';
import { queueUrlFor, startSqsEndpoint } from './sqs-endpoint.js';
import { readState, writeState } from './state.js';

export type ServiceName = 'gateway' | 'dynamodb' | 'cognito' | 's3' | 'ses' | 'sqs' | 'stripe' | 'openai' | 'whatsapp' | 'twilio' | 'push' | 'google';

export interface LocalStackOptions {
  /** Absolute folder for all local data (DynamoDB files, users, uploads, mailbox, logs). */
  dataDir: string;
  /** Fixed ports; 0 or missing = any free port. */
  ports?: Partial<Record<ServiceName, number>>;
  /** Env var to name in the "port in use" message, per service (start.ts passes PORT, ...). */
  portEnvVars?: Partial<Record<ServiceName, string>>;
  /** Built frontend to serve; omit to serve none. */
  frontendDir?: string;
  /** Extra handler environment (e.g. GOOGLE_JWKS_URL, GOOGLE_CLIENT_ID). */
  env?: Record<string, string>;
  /** Public origin the user opens (APP_URL in e-mails); defaults to the gateway URL. */
  appUrl?: string;
  /** Only warnings and errors on the console. */
  quiet?: boolean;
  /** Dispatcher tuning. The retry timing is RETRY_TIME_SCALE (env: 1 = AWS's schedule; tests pass a tiny one). */
  sqs?: { batchWindowMs?: number; concurrency?: number };
  /**
   * A service (DynamoDB Local, cognito-local, s3rver, the SES mailbox) died and could not be kept
   * running (supervisor.ts: it is restarted up to 3 times in 10 minutes): the stack has stopped
   * itself, with the reason logged; npm start exits. Default: only that.
   */
  onFatal?: (error: Error) => void;
  /** Gateway integration timeout (ms), default 30 s like API Gateway. */
  gatewayTimeoutMs?: number;
  /** WebSocket API limits (ms): 10 min idle, 2 h per connection, 29 s for $connect by default, like API Gateway. */
  socketLimits?: SocketLimits;
  /**
   * Run the manifest's schedules (routes.ts `schedules`) on their rate, like EventBridge rules
   * (npm start). Off by default: tests trigger a run with POST /_local/schedules/{name}/run.
   */
  schedules?: boolean;
  /**
   * Local billing mode (the default): a fake Stripe API on loopback that the handlers reach
   * through the official SDK (STRIPE_API_URL), delivering signed webhooks to the gateway.
   * false = no fake; the handlers use whatever STRIPE_* the environment has (real Stripe).
   */
  stripe?: false | { retryDelaysMs?: number[]; webhookUrl?: string };
  /**
   * The fake OpenAI API (the default): OPENAI_BASE_URL of the handlers points at it and its
   * host:port joins OUTBOUND_ALLOW_HOSTS, so the ChatGPT integration works offline with any
   * "sk-" key. false = no fake; OPENAI_BASE_URL from the environment (unset = api.openai.com).
   */
  openai?: false | { slowDelayMs?: number; streamDelays?: StreamDelays };
  /**
   * The fake WhatsApp Graph API (the default): WHATSAPP_GRAPH_URL of the handlers points at it.
   * false = no fake; WHATSAPP_GRAPH_URL from the environment (unset = graph.facebook.com).
   */
  whatsapp?: false;
  /**
   * The fake Twilio REST API (the default): TWILIO_API_URL of the handlers points at it.
   * false = no fake; TWILIO_API_URL from the environment (unset = api.twilio.com).
   */
  twilio?: false;
  /**
   * The fake Web Push service (the default; issue 29): https on loopback, its certificate trusted
   * by the handlers (OUTBOUND_EXTRA_CA) and its host:port on OUTBOUND_ALLOW_HOSTS, so pushes to the
   * subscriptions it mints are delivered and decrypted offline. false = no fake.
   */
  push?: false;
  /**
   * The fake Google OAuth + Calendar API (the default; issue 30): the GOOGLE_OAUTH_* and
   * GOOGLE_CALENDAR_* variables of the handlers point at it, so connecting Google Calendar works
   * offline. false = no fake; those variables from the environment (a real OAuth client).
   */
  googleCalendar?: false;
  /**
   * Fault proxies (issue 34, fault-proxy.ts) in front of s3rver, the SES mailbox and DynamoDB
   * Local: the handlers and workers get the proxies' endpoints (`appEndpoints`), switched with
   * /_local/faults/{s3|ses|dynamodb}; `endpoints` stay the services' own, for the tests' seeding
   * and reads. Off by default (npm start); the integration setup turns it on.
   */
  faultProxies?: boolean;
}

/** Local billing mode: what the handlers and tests need to reach the fake Stripe. */
export interface LocalStripe {
  /** STRIPE_API_URL: the fake's origin; also serves /checkout, /portal and /_test. */
  apiUrl: string;
  secretKey: string;
  webhookSecret: string;
  /** Plan id → price id (STRIPE_PRICE_STARTER, ...). */
  prices: Record<PlanId, string>;
  webhookUrl: string;
}

export interface LocalStack {
  /** Gateway origin: API under /api, the SPA, /config.json, /_local tools, WebSocket APIs under /_ws. */
  apiUrl: string;
  /** The SES mailbox web page; its JSON store is at `${mailboxUrl}/store`. */
  mailboxUrl: string;
  deadLettersUrl: string;
  endpoints: { dynamodb: string; cognito: string; s3: string; ses: string; sqs: string };
  /** The endpoints the handlers use: `endpoints`, with the fault proxies' for s3 / ses / dynamodb when faultProxies is on. */
  appEndpoints: { dynamodb: string; cognito: string; s3: string; ses: string; sqs: string };
  /** `${apiUrl}/_local/faults` (GET: every proxy; /{s3|ses|dynamodb}: one) when faultProxies is on, else null. */
  faultsUrl: string | null;
  /** The fake Stripe of local billing mode; null when real Stripe is configured. */
  stripe: LocalStripe | null;
  /** The fake OpenAI's origin (its API is under /v1, its control API under /_test); null when disabled. */
  openaiUrl: string | null;
  /** The fake WhatsApp Graph API's origin (control API under /_test; handlers use `${url}/v21.0`); null when disabled. */
  whatsappGraphUrl: string | null;
  /** The fake Twilio's origin (TWILIO_API_URL; control API under /_test, see local/fake-twilio/server.ts); null when disabled. */
  twilioApiUrl: string | null;
  /** The fake Web Push service's origin (https; control API under /_test) and its certificate (PEM); null when disabled. */
  pushServiceUrl: string | null;
  pushServiceCa: string | null;
  /** The fake Google's origin (OAuth at /o/oauth2/v2/auth and /token, Calendar API at /calendar/v3, control API under /_test); null when disabled. */
  googleCalendarUrl: string | null;
  tableName: string;
  userPoolId: string;
  userPoolClientId: string;
  /** `${cognito}/${userPoolId}`: the `iss` of tokens the gateway accepts. */
  issuer: string;
  uploadsBucket: string;
  queueUrls: Record<string, string>;
  dispatcher: SqsDispatcher;
  /** The environment handlers run with (already applied to process.env). */
  env: Record<string, string>;
  dataDir: string;
  /** Stops every server and child process; safe to call more than once. */
  stop(): Promise<void>;
}

export const TABLE_NAME = 'agentdesk';
export const UPLOADS_BUCKET = 'agentdesk-uploads';

export async function startLocalStack(options: LocalStackOptions): Promise<LocalStack> {
  const { dataDir } = options;
  if (!isAbsolute(dataDir)) throw new Error(`dataDir must be absolute, got ${dataDir}`);
  mkdirSync(dataDir, { recursive: true });
  const info = (message: string) => {
    if (!options.quiet) console.log(message);
  };
  const log = (level: 'info' | 'warn' | 'error', message: string) => {
    if (level === 'info') info(message);
    else console[level](message);
  };

  const want = (name: ServiceName, service: string) => ({
    service,
    port: options.ports?.[name],
    envVar: options.portEnvVars?.[name],
  });
  const ports: Record<Exclude<ServiceName, 'stripe' | 'openai' | 'whatsapp' | 'twilio' | 'push' | 'google'>, number> & { stripe?: number; openai?: number; whatsapp?: number; twilio?: number; push?: number; google?: number } = await resolvePorts<ServiceName>({
    gateway: want('gateway', 'gateway'),
    dynamodb: want('dynamodb', 'DynamoDB Local'),
    cognito: want('cognito', 'cognito-local'),
    s3: want('s3', 's3rver'),
    ses: want('ses', 'SES mailbox'),
    sqs: want('sqs', 'SQS endpoint'),
    // Not asked for (so never "in use") when real Stripe is configured.
    ...((options.stripe === false ? {} : { stripe: want('stripe', 'fake Stripe (local billing)') }) as { stripe: PortRequest }),
    ...((options.openai === false ? {} : { openai: want('openai', 'fake OpenAI') }) as { openai: PortRequest }),
    ...((options.whatsapp === false ? {} : { whatsapp: want('whatsapp', 'fake WhatsApp Graph API') }) as { whatsapp: PortRequest }),
    ...((options.twilio === false ? {} : { twilio: want('twilio', 'fake Twilio REST API') }) as { twilio: PortRequest }),
    ...((options.push === false ? {} : { push: want('push', 'fake Web Push service') }) as { push: PortRequest }),
    ...((options.googleCalendar === false ? {} : { google: want('google', 'fake Google Calendar API') }) as { google: PortRequest }),
  });
  const apiUrl = `http://127.0.0.1:${ports.gateway}`;
  const appUrl = options.appUrl ?? apiUrl;

  const started: { stop(): Promise<void> }[] = [];
  const stopAll = async () => {
    // Reverse order: the gateway stops taking requests before the services behind it go.
    for (const service of started.reverse()) await service.stop().catch(() => undefined);
    started.length = 0;
  };
  let stopping: Promise<void> | undefined;
  const stopOnce = () => (stopping ??= stopAll());
  // A service that dies is restarted; one that cannot be kept running stops everything, loudly.
  const supervision: Supervision = {
    log,
    onGiveUp: (error) => void stopOnce().then(() => options.onFatal?.(error)),
  };

  const t0 = Date.now();
  const dispatcher = new SqsDispatcher({
    queues: workers,
    loadHandler: (queue) => loadWorker(queue) as Promise<SqsHandler>,
    log,
    ...options.sqs,
  });
  // Before issue 34 pending messages were kept here on a clean stop only; now the journal keeps them.
  const legacySqsFile = join(dataDir, 'sqs.json');

  try {
    // First: cognito-local's config names it. Its handler runs on the first sign-in, after
    // applyHandlerEnv below, like every other handler.
    const lambda = await startLambdaEndpoint({ log });
    started.push(lambda);
    const cognitoTriggers = { lambdaEndpoint: lambda.endpoint, functions: { PreTokenGeneration: PRE_TOKEN_FUNCTION } };

    const corsOrigins = [
      ...new Set([apiUrl, `http://localhost:${ports.gateway}`, new URL(appUrl).origin]),
    ];
    // Start the independent services together; if one fails, stop the ones that came up.
    const stripeOptions = options.stripe === false ? undefined : (options.stripe ?? {});
    const stripeWebhookUrl = stripeOptions?.webhookUrl ?? `${apiUrl}${WEBHOOK_PATH}`;
    const fakeStripe =
      stripeOptions && ports.stripe !== undefined
        ? startFakeStripe({
            port: ports.stripe,
            webhookUrl: stripeWebhookUrl,
            webhookSecret: localWebhookSecret(dataDir),
            stateFile: join(dataDir, 'stripe.json'),
            retryDelaysMs: stripeOptions.retryDelaysMs,
            log,
          })
        : Promise.resolve(undefined);
    const openaiOptions = options.openai === false ? undefined : (options.openai ?? {});
    const fakeOpenAi =
      openaiOptions && ports.openai !== undefined
        ? startFakeOpenAi({ port: ports.openai, slowDelayMs: openaiOptions.slowDelayMs, streamDelays: openaiOptions.streamDelays, log })
        : Promise.resolve(undefined);
    const fakeWhatsApp =
      options.whatsapp !== false && ports.whatsapp !== undefined
        ? startFakeWhatsApp({ port: ports.whatsapp, log })
        : Promise.resolve(undefined);
    const fakeTwilio =
      options.twilio !== false && ports.twilio !== undefined ? startFakeTwilio({ port: ports.twilio, log }) : Promise.resolve(undefined);
    const fakePush = options.push !== false && ports.push !== undefined ? startFakePush({ port: ports.push, log }) : Promise.resolve(undefined);
    const fakeGoogle =
      options.googleCalendar !== false && ports.google !== undefined ? startFakeGoogleCalendar({ port: ports.google, log }) : Promise.resolve(undefined);
    const [googleResult, pushResult, twilioResult, whatsappResult, openaiResult, stripeResult, ...results] = await Promise.allSettled([
      fakeGoogle,
      fakePush,
      fakeTwilio,
      fakeWhatsApp,
      fakeOpenAi,
      fakeStripe,
      startDynamo(dataDir, ports.dynamodb, supervision),
      startCognito(dataDir, ports.cognito, supervision, cognitoTriggers),
      startS3(dataDir, ports.s3, UPLOADS_BUCKET, corsOrigins, supervision),
      startSes(dataDir, ports.ses, supervision),
      startSqsEndpoint(dispatcher, ports.sqs),
    ]);
    if (googleResult.status === 'fulfilled' && googleResult.value) started.push(googleResult.value);
    if (pushResult.status === 'fulfilled' && pushResult.value) started.push(pushResult.value);
    if (twilioResult.status === 'fulfilled' && twilioResult.value) started.push(twilioResult.value);
    if (whatsappResult.status === 'fulfilled' && whatsappResult.value) started.push(whatsappResult.value);
    if (openaiResult.status === 'fulfilled' && openaiResult.value) started.push(openaiResult.value);
    if (stripeResult.status === 'fulfilled' && stripeResult.value) started.push(stripeResult.value);
    for (const r of results) if (r.status === 'fulfilled') started.push(r.value);
    const failure = [googleResult, pushResult, twilioResult, whatsappResult, openaiResult, stripeResult, ...results].find((r): r is PromiseRejectedResult => r.status === 'rejected');
    const runningOpenAi = openaiResult.status === 'fulfilled' ? openaiResult.value : undefined;
    // The handlers' default model API, and the only loopback host:ports the outbound guard lets
    // through (plus any the caller adds, e.g. the tests' web server).
    const openaiEnv: Record<string, string> = runningOpenAi
      ? { OPENAI_BASE_URL: runningOpenAi.baseUrl }
      : {};
    const runningWhatsApp = whatsappResult.status === 'fulfilled' ? whatsappResult.value : undefined;
    const whatsappEnv: Record<string, string> = runningWhatsApp ? { WHATSAPP_GRAPH_URL: runningWhatsApp.graphUrl } : {};
    const runningTwilio = twilioResult.status === 'fulfilled' ? twilioResult.value : undefined;
    const twilioEnv: Record<string, string> = runningTwilio ? { TWILIO_API_URL: runningTwilio.url } : {};
    // The voice-relay WebSocket API on the gateway: the URL Twilio's ConversationRelay connects to
    // (wss://{api}.execute-api…/{stage} in AWS) and the connection-posting endpoint the function
    // answers through. No warm-up locally (VOICE_RELAY_FUNCTION ''): the handler module stays
    // loaded in this process after its first call, so there is no cold start to hide.
    const relayEnv: Record<string, string> = {
      VOICE_RELAY_URL: `ws://127.0.0.1:${ports.gateway}/_ws/voice-relay`,
      VOICE_RELAY_CONNECTIONS_URL: `${apiUrl}/_ws/voice-relay`,
      VOICE_RELAY_FUNCTION: '',
    };
    const runningPush = pushResult.status === 'fulfilled' ? pushResult.value : undefined;
    // Web Push (issue 29): the VAPID pair generated once under .data, and the fake's certificate.
    const pushEnv: Record<string, string> = { ...localVapidKeys(dataDir), ...(runningPush ? { OUTBOUND_EXTRA_CA: runningPush.ca } : {}) };
    const runningGoogle = googleResult.status === 'fulfilled' ? googleResult.value : undefined;
    const googleEnv: Record<string, string> = runningGoogle ? runningGoogle.env : {};
    const allowHosts = [
      ...(runningOpenAi ? [`127.0.0.1:${runningOpenAi.port}`, `localhost:${runningOpenAi.port}`] : []),
      ...(runningPush ? [`127.0.0.1:${runningPush.port}`, `localhost:${runningPush.port}`] : []),
      ...(options.env?.OUTBOUND_ALLOW_HOSTS ?? '').split(',').map((h) => h.trim()).filter(Boolean),
    ];
    if (failure) throw failure.reason;
    const runningStripe = stripeResult.status === 'fulfilled' ? stripeResult.value : undefined;
    const stripe: LocalStripe | null = runningStripe
      ? {
          apiUrl: runningStripe.url,
          secretKey: LOCAL_STRIPE_SECRET_KEY,
          webhookSecret: runningStripe.webhookSecret,
          prices: runningStripe.priceIds,
          webhookUrl: stripeWebhookUrl,
        }
      : null;
    const [dynamo, cognito, s3, ses, sqs] = results.map((r) => (r as PromiseFulfilledResult<RunningService>).value) as [
      RunningService,
      RunningService,
      RunningService,
      RunningService,
      RunningService,
    ];
    // The journal keeps pending messages and the dead-letter list for the next start (compacted on a clean stop).
    started.splice(started.indexOf(sqs), 0, { stop: async () => dispatcher.close() });

    const previous = readState(dataDir);
    const [, pool] = await Promise.all([
      ensureTable(dynamo.endpoint, TABLE_NAME),
      ensureUserPool(cognito.endpoint, previous),
    ]);

    const endpoints = {
      dynamodb: dynamo.endpoint,
      cognito: cognito.endpoint,
      s3: s3.endpoint,
      ses: ses.endpoint,
      sqs: sqs.endpoint,
    };
    // The app reaches S3, SES and DynamoDB through the fault proxies when asked for; the direct
    // endpoints stay for the stack's own setup and the tests.
    const proxies: Partial<Record<ProxiedService, FaultProxy>> = {};
    if (options.faultProxies) {
      for (const service of PROXIED_SERVICES) {
        const { hostname, port } = new URL(endpoints[service]);
        const proxy = await startFaultProxy({ service, upstream: { host: hostname, port: Number(port) }, log });
        started.push(proxy);
        proxies[service] = proxy;
      }
    }
    const appEndpoints = { ...endpoints, ...Object.fromEntries(Object.values(proxies).map((p) => [p.service, p.endpoint])) };
    const queueUrls = Object.fromEntries(Object.keys(workers).map((q) => [q, queueUrlFor(sqs.endpoint, q)]));
    const env = handlerEnv({
      appUrl,
      dataDir,
      tableName: TABLE_NAME,
      uploadsBucket: UPLOADS_BUCKET,
      ...pool,
      endpoints: appEndpoints,
      queueUrls,
      stripe: stripe ?? undefined,
      extra: { ...openaiEnv, ...whatsappEnv, ...twilioEnv, ...relayEnv, ...pushEnv, ...googleEnv, ...options.env, ...(allowHosts.length ? { OUTBOUND_ALLOW_HOSTS: allowHosts.join(',') } : {}) },
    });
    applyHandlerEnv(env);
    // RETRY_TIME_SCALE (validated here, before anything runs): the local queue's clock.
    dispatcher.setTimeScale(config().RETRY_TIME_SCALE);
    // Only now: a restored message may import its worker, which must see the local env.
    const { restored, interrupted } = dispatcher.open(join(dataDir, 'sqs', 'journal.ndjson'));
    if (restored > 0) info(`[sqs] ${restored} queued job(s) restored${interrupted ? `, ${interrupted} of them interrupted by the last stop and delivered again` : ''}`);
    if (existsSync(legacySqsFile)) {
      try {
        dispatcher.restore(JSON.parse(readFileSync(legacySqsFile, 'utf8')) as DispatcherSnapshot);
      } catch {
        log('warn', `[sqs] ignoring unreadable ${legacySqsFile}`);
      }
      unlinkSync(legacySqsFile);
    }

    // After applyHandlerEnv: a schedule's handler is imported on its first run and reads the local env.
    const scheduled = scheduleRunner({ interval: options.schedules === true, log });
    started.push({ stop: async () => scheduled.stop() });
    const authorizer = cognitoAuthorizer(cognito.endpoint, pool.userPoolId, pool.userPoolClientId);
    const gateway = await startGateway({
      port: ports.gateway,
      authorizer,
      // POST /_local/clock: moves the token checks' and cognito-local's clock forward together.
      sessionClock: sessionClock(cognito.endpoint),
      loadGroup: loadRouteGroup,
      dispatcher,
      services: () => serviceStatus([dynamo, cognito, s3, ses]),
      schedules: scheduled,
      frontendDir: options.frontendDir,
      publicConfig: { googleClientId: env.GOOGLE_CLIENT_ID ?? process.env.GOOGLE_CLIENT_ID ?? '' },
      // The browser PUTs uploads to and shows avatars from presigned s3rver URLs (the app's endpoint).
      siteCspSources: { uploads: [new URL(appEndpoints.s3).origin] },
      ...(options.faultProxies ? { faultProxies: proxies } : {}),
      timeoutMs: options.gatewayTimeoutMs,
      socketLimits: options.socketLimits,
      log,
    });
    started.push(gateway);

    const stack: Omit<LocalStack, 'stop'> = {
      apiUrl,
      mailboxUrl: ses.endpoint,
      deadLettersUrl: `${apiUrl}/_local/dead-letters`,
      endpoints,
      appEndpoints,
      faultsUrl: options.faultProxies ? `${apiUrl}/_local/faults` : null,
      stripe,
      openaiUrl: runningOpenAi?.url ?? null,
      whatsappGraphUrl: runningWhatsApp?.url ?? null,
      twilioApiUrl: runningTwilio?.url ?? null,
      pushServiceUrl: runningPush?.url ?? null,
      pushServiceCa: runningPush?.ca ?? null,
      googleCalendarUrl: runningGoogle?.url ?? null,
      tableName: TABLE_NAME,
      userPoolId: pool.userPoolId,
      userPoolClientId: pool.userPoolClientId,
      issuer: authorizer.issuer,
      uploadsBucket: UPLOADS_BUCKET,
      queueUrls,
      dispatcher,
      env,
      dataDir,
    };
    writeState(dataDir, {
      apiUrl,
      mailboxUrl: stack.mailboxUrl,
      endpoints,
      tableName: TABLE_NAME,
      uploadsBucket: UPLOADS_BUCKET,
      ...pool,
      env,
      pid: process.pid,
      startedAt: new Date().toISOString(),
    });
    info(`[local] stack ready in ${Date.now() - t0} ms`);

    return { ...stack, stop: stopOnce };
  } catch (error) {
    dispatcher.stop();
    await stopOnce();
    throw error;
  }
}

/** The supervised services' states, for GET /_local/services. */
function serviceStatus(services: RunningService[]) {
  return services.flatMap((service) => (service.status ? [service.status()] : []));
}
