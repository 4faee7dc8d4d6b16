/**
 * `npm start` (and `npm run dev` with --dev): the whole product on this machine, no AWS account.
 *
 * Ports (environment variables, defaults):
 *   PORT           3000  the app: frontend + /api + /config.json + /_local tools
 *   DYNAMODB_PORT  8000  DynamoDB Local
 *   COGNITO_PORT   9229  cognito-local
 *   S3_PORT        4569  s3rver
 *   SES_PORT       8005  SES mailbox (web page with every e-mail sent)
 *   SQS_PORT       9324  local SQS endpoint
 *   STRIPE_PORT   12111  fake Stripe (local billing mode: API, checkout and portal pages)
 *   OPENAI_PORT    4010  fake OpenAI (the ChatGPT integration's default API: any "sk-" key works)
 *   WHATSAPP_GRAPH_PORT 4011  fake WhatsApp Graph API (sends are recorded, see local/fake-whatsapp/)
 *   TWILIO_PORT    4012  fake Twilio REST API (register accounts and play calls, see local/fake-twilio/)
 *   VITE_PORT      5173  Vite dev server (--dev only)
 * Optional: GOOGLE_CLIENT_ID enables Google sign-in (served in /config.json).
 * OUTBOUND_ALLOW_HOSTS: comma-separated host[:port] on this machine that URL sources and custom
 * tools may reach (e.g. localhost:8080,127.0.0.1:9000); every other loopback or private address
 * stays refused by the outbound guard (see start-options.ts).
 * Billing: without STRIPE_SECRET_KEY (the default) billing runs in local test mode against the
 * fake Stripe, no real payments. With STRIPE_SECRET_KEY set, the handlers use that key and the
 * STRIPE_WEBHOOK_SECRET / STRIPE_PRICE_* / STRIPE_API_URL from the environment instead.
 * OpenAI: without OPENAI_BASE_URL (the default) integrations with an empty "API base URL" talk to
 * the fake OpenAI, offline. With OPENAI_BASE_URL set (e.g. https://api.openai.com/v1) no fake is
 * started and that API is used with the key entered in Integrations.
 * WhatsApp: without WHATSAPP_GRAPH_URL (the default) the WhatsApp integration talks to the fake
 * Graph API; with it set (e.g. https://graph.facebook.com/v21.0) no fake is started.
 * Twilio: without TWILIO_API_URL (the default) the Twilio Voice integration talks to the fake
 * Twilio REST API; with it set (e.g. https://api.twilio.com) no fake is started.
 * Streamed calls: the gateway also serves the voice-relay WebSocket API at ws://127.0.0.1:PORT/_ws/voice-relay
 * (and its connection-posting API under /_ws/voice-relay/@connections); the fake Twilio's call
 * simulator plays ConversationRelay against it.
 *
 * Data lives in <repo>/.data (git-ignored) and survives restarts. Ctrl-C stops everything.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PortInUseError, isPortFree } from './ports.js';
import { startLocalStack, type LocalStack } from './stack.js';
import { StartConfigError, localStartConfig } from './start-options.js';

// This project runs on Node 20 on purpose (ARCHITECTURE §5); the SDK's Node 22 notice is noise here.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const repoDir = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
const dataDir = join(repoDir, '.data');
const frontendRoot = join(repoDir, 'frontend');
const dev = process.argv.includes('--dev');

async function main(): Promise<void> {
  const config = localStartConfig(process.env, { dev });
  const { ports, vitePort, appUrl, outboundAllowHosts } = config;
  const { stripeKey: realStripeKey, openAiUrl: realOpenAiUrl, graphUrl: realGraphUrl, twilioUrl: realTwilioUrl } = config.real;
  if (dev && !(await isPortFree(vitePort))) throw new PortInUseError(vitePort, 'Vite dev server', 'VITE_PORT');

  console.log('Starting AgentDesk locally…');
  const stack = await startLocalStack({
    ...config.stackOptions,
    dataDir,
    frontendDir: join(frontendRoot, 'dist'),
    // A service that died and could not be restarted: the stack has stopped (the reason is logged above).
    onFatal: (error) => {
      console.error(`\nAgentDesk stopped: ${error.message.split('\n')[0]}`);
      process.exit(1);
    },
  });

  let closeVite: (() => Promise<void>) | undefined;
  if (dev) closeVite = await startVite(stack, vitePort);
  installShutdown(stack, () => closeVite?.());

  const built = existsSync(join(frontendRoot, 'dist', 'index.html'));
  const line = (label: string, value: string) => console.log(`  ${label.padEnd(14)} ${value}`);
  console.log('\nAgentDesk is running.');
  line('App', appUrl + (dev ? '   (Vite, hot reload)' : ''));
  if (dev) line('API + build', `http://localhost:${ports.gateway}`);
  else if (!built) line('', '(frontend not built: run npm run build -w frontend, or npm run dev)');
  line('Mailbox', stack.mailboxUrl);
  line('Dead letters', stack.deadLettersUrl.replace('127.0.0.1', 'localhost'));
  if (stack.stripe) {
    line('Billing', `local test mode (fake Stripe at ${stack.stripe.apiUrl.replace('127.0.0.1', 'localhost')}) — no real payments`);
  } else {
    const live = realStripeKey?.startsWith('sk_live_') || realStripeKey?.startsWith('rk_live_');
    line('Billing', `Stripe ${live ? 'LIVE mode: real payments' : 'test mode'} (STRIPE_SECRET_KEY from the environment)`);
  }
  line(
    'OpenAI',
    stack.openaiUrl
      ? `fake OpenAI at ${stack.openaiUrl.replace('127.0.0.1', 'localhost')}/v1 — any key starting sk- works, offline`
      : `${realOpenAiUrl} (OPENAI_BASE_URL from the environment)`,
  );
  line(
    'WhatsApp',
    stack.whatsappGraphUrl
      ? `fake Graph API at ${stack.whatsappGraphUrl.replace('127.0.0.1', 'localhost')} — sends recorded at /_test/sent, offline`
      : `${realGraphUrl} (WHATSAPP_GRAPH_URL from the environment)`,
  );
  line(
    'Twilio',
    stack.twilioApiUrl
      ? `fake Twilio REST API at ${stack.twilioApiUrl.replace('127.0.0.1', 'localhost')} — register accounts and play calls at /_test, offline`
      : `${realTwilioUrl} (TWILIO_API_URL from the environment)`,
  );
  if (stack.pushServiceUrl) {
    // Browsers subscribe at their own push service (online); this fake takes subscriptions it minted (tests).
    line('Web Push', `VAPID keys in ${dataDir}/vapid.json; fake push service at ${stack.pushServiceUrl} — subscriptions at /_test/subscriptions, pushes decrypted at /_test/messages`);
  }
  line(
    'Google Cal.',
    stack.googleCalendarUrl
      ? `fake Google OAuth + Calendar API at ${stack.googleCalendarUrl.replace('127.0.0.1', 'localhost')} — consents at once; busy time and events at /_test, offline`
      : 'Google (GOOGLE_CALENDAR_CLIENT_ID / _SECRET from the environment)',
  );
  line(
    'Outbound',
    outboundAllowHosts.length
      ? `URL sources and custom tools may also reach ${outboundAllowHosts.join(', ')} (OUTBOUND_ALLOW_HOSTS)`
      : 'local and private addresses refused (set OUTBOUND_ALLOW_HOSTS=localhost:8080 to try a page or tool on this machine)',
  );
  line('Voice relay', `${stack.env.VOICE_RELAY_URL ?? ''} — the ConversationRelay WebSocket API of streamed calls`);
  line('Data', dataDir);
  console.log('Press Ctrl-C to stop.\n');
}

async function startVite(stack: LocalStack, port: number): Promise<() => Promise<void>> {
  // Imported only for --dev: vite belongs to the frontend workspace.
  const { createServer } = await import('vite');
  const sigtermBefore = new Set(process.listeners('SIGTERM'));
  const stdinEndBefore = new Set(process.stdin.listeners('end'));
  const server = await createServer({
    root: frontendRoot,
    configFile: join(frontendRoot, 'vite.config.ts'),
    server: {
      port,
      strictPort: true,
      proxy: {
        '/api': { target: stack.apiUrl, changeOrigin: false },
        '/config.json': { target: stack.apiUrl, changeOrigin: false },
      },
    },
  });
  // Vite exits the process on SIGTERM / stdin end by itself, which would skip stopping the
  // emulators cleanly; our shutdown closes Vite first, then the stack.
  for (const l of process.listeners('SIGTERM')) if (!sigtermBefore.has(l)) process.off('SIGTERM', l);
  for (const l of process.stdin.listeners('end')) {
    if (!stdinEndBefore.has(l)) process.stdin.off('end', l as (...args: unknown[]) => void);
  }
  await server.listen();
  return () => server.close();
}

function installShutdown(stack: LocalStack, beforeStop: () => Promise<void> | undefined): void {
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) {
      // A second Ctrl-C: do not wait any longer (children get SIGKILL from the exit hook).
      process.exit(130);
    }
    stopping = true;
    console.log(`\n${signal}: stopping…`);
    void Promise.resolve(beforeStop())
      .catch(() => undefined)
      .then(() => stack.stop())
      .then(() => {
        console.log('Stopped.');
        process.exit(0);
      });
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((error: unknown) => {
  if (error instanceof PortInUseError || error instanceof StartConfigError) console.error(error.message);
  else console.error('Could not start the local stack:', error instanceof Error ? error.message : error);
  process.exit(1);
});
