/**
 * What `npm start` (start.ts) reads from the environment, as a pure function so it can be tested:
 * the ports, the real-service switches and OUTBOUND_ALLOW_HOSTS, turned into startLocalStack's
 * options. A bad value throws StartConfigError with a message naming the variable.
 */
import ipaddr from 'ipaddr.js';
import type { LocalStackOptions, ServiceName } from './stack.js';

export class StartConfigError extends Error {}

const PORT_ENV: Record<ServiceName, [string, number]> = {
  gateway: ['PORT', 3000],
  dynamodb: ['DYNAMODB_PORT', 8000],
  cognito: ['COGNITO_PORT', 9229],
  s3: ['S3_PORT', 4569],
  ses: ['SES_PORT', 8005],
  sqs: ['SQS_PORT', 9324],
  stripe: ['STRIPE_PORT', 12111],
  openai: ['OPENAI_PORT', 4010],
  whatsapp: ['WHATSAPP_GRAPH_PORT', 4011],
  twilio: ['TWILIO_PORT', 4012],
  push: ['PUSH_PORT', 4013],
  google: ['GOOGLE_CALENDAR_PORT', 4014],
};

type Env = Record<string, string | undefined>;

function portFromEnv(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new StartConfigError(`${name}=${raw} is not a valid port number.`);
  return port;
}

const EXAMPLE = 'e.g. OUTBOUND_ALLOW_HOSTS=localhost:8080,127.0.0.1:9000';
const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];

/**
 * OUTBOUND_ALLOW_HOSTS for the local runtime: comma-separated host[:port] (a pasted URL works too;
 * no port = 80 and 443). The outbound guard lets exactly these host:ports reach a LOOPBACK address
 * (a page or tool served on this machine) and still refuses private networks and everything else,
 * so a private/link-local IP here is an error rather than an entry that silently never works.
 * localhost, 127.0.0.1 and [::1] are one machine: listing one of them lists all three on that port.
 */
export function parseOutboundAllowHosts(raw: string | undefined): string[] {
  const out = new Set<string>();
  for (const entry of (raw ?? '').split(',').map((e) => e.trim()).filter(Boolean)) {
    let url: URL;
    try {
      url = new URL(/^https?:\/\//i.test(entry) ? entry : `http://${entry}`);
    } catch {
      throw new StartConfigError(`OUTBOUND_ALLOW_HOSTS: "${entry}" is not a host[:port] (${EXAMPLE}).`);
    }
    const explicitPort = /^https?:\/\//i.test(entry) ? url.port || (url.protocol === 'https:' ? '443' : '80') : url.port;
    if (url.username || url.password || (/^https?:\/\//i.test(entry) ? false : entry.includes('/'))) {
      throw new StartConfigError(`OUTBOUND_ALLOW_HOSTS: "${entry}" is not a host[:port] (${EXAMPLE}).`);
    }
    const host = url.hostname.toLowerCase();
    const bare = host.startsWith('[') ? host.slice(1, -1) : host;
    if (ipaddr.isValid(bare)) {
      const range = ipaddr.process(bare).range();
      if (range !== 'loopback') {
        throw new StartConfigError(
          `OUTBOUND_ALLOW_HOSTS: "${entry}" is not on this machine (${range} address). The allow-list only opens loopback ` +
            `addresses (localhost, 127.0.0.1, [::1]); private networks and metadata addresses stay refused.`,
        );
      }
    }
    const ports = explicitPort ? [explicitPort] : ['80', '443'];
    const isLoopbackName = host === 'localhost' || (ipaddr.isValid(bare) && ipaddr.process(bare).range() === 'loopback');
    for (const port of ports) {
      out.add(`${host}:${port}`);
      if (isLoopbackName) for (const alias of LOOPBACK_NAMES) out.add(`${alias}:${port}`);
    }
  }
  return [...out];
}

export interface StartConfig {
  ports: Record<ServiceName, number>;
  portEnvVars: Record<ServiceName, string>;
  vitePort: number;
  appUrl: string;
  /** The real services configured instead of the fakes (undefined = the fake runs). */
  real: { stripeKey?: string; openAiUrl?: string; graphUrl?: string; twilioUrl?: string; googleCalendarClientId?: string };
  /** OUTBOUND_ALLOW_HOSTS as the guard will see it (before the fake OpenAI's own entries). */
  outboundAllowHosts: string[];
  /** startLocalStack's options except dataDir and frontendDir. */
  stackOptions: Omit<LocalStackOptions, 'dataDir' | 'frontendDir'>;
}

export function localStartConfig(env: Env, options: { dev: boolean }): StartConfig {
  const ports = Object.fromEntries(
    Object.entries(PORT_ENV).map(([service, [envVar, fallback]]) => [service, portFromEnv(env, envVar, fallback)]),
  ) as Record<ServiceName, number>;
  const portEnvVars = Object.fromEntries(Object.entries(PORT_ENV).map(([service, [envVar]]) => [service, envVar])) as Record<ServiceName, string>;
  const vitePort = portFromEnv(env, 'VITE_PORT', 5173);
  const appUrl = options.dev ? `http://localhost:${vitePort}` : `http://localhost:${ports.gateway}`;
  const real = {
    stripeKey: env.STRIPE_SECRET_KEY?.trim() || undefined,
    openAiUrl: env.OPENAI_BASE_URL?.trim() || undefined,
    graphUrl: env.WHATSAPP_GRAPH_URL?.trim() || undefined,
    twilioUrl: env.TWILIO_API_URL?.trim() || undefined,
    googleCalendarClientId: env.GOOGLE_CALENDAR_CLIENT_ID?.trim() || undefined,
  };
  const outboundAllowHosts = parseOutboundAllowHosts(env.OUTBOUND_ALLOW_HOSTS);
  return {
    ports,
    portEnvVars,
    vitePort,
    appUrl,
    real,
    outboundAllowHosts,
    stackOptions: {
      ports,
      portEnvVars,
      appUrl,
      schedules: true,
      // The stack adds the fake OpenAI's host:ports to these; without this the handlers' env
      // (which replaces process.env's) would only ever allow the fakes.
      ...(outboundAllowHosts.length ? { env: { OUTBOUND_ALLOW_HOSTS: outboundAllowHosts.join(',') } } : {}),
      ...(real.stripeKey ? { stripe: false as const } : {}),
      ...(real.openAiUrl ? { openai: false as const } : {}),
      ...(real.graphUrl ? { whatsapp: false as const } : {}),
      ...(real.twilioUrl ? { twilio: false as const } : {}),
      // A real Google OAuth client (GOOGLE_CALENDAR_CLIENT_ID / _SECRET): Google's own endpoints.
      ...(real.googleCalendarClientId ? { googleCalendar: false as const } : {}),
    },
  };
}
