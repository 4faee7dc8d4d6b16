/**
 * `npm run simulate:whatsapp -- …`: a customer writes to your local agent on WhatsApp, as Meta
 * would deliver it — a text, a voice note (with the transcript the fake OpenAI will hear), a photo,
 * a PDF or a location — and the agent's reply is printed. Offline: the media is registered with
 * the fake Graph API (GET /{media-id} and its download), the transcript with the fake OpenAI, and
 * the delivery is signed with the integration's app secret and posted to the local webhook, which
 * queues it for the whatsapp-inbound worker like any other.
 *
 *   npm run simulate:whatsapp -- --voice nota.ogg --transcript "Quería pedir cita con la Dra. Pérez" --from 34600111222
 *   npm run simulate:whatsapp -- --text "Hola, ¿abrís el sábado?"
 *   npm run simulate:whatsapp -- --image receta.jpg --caption "¿Tenéis esto?"
 *   npm run simulate:whatsapp -- --document presupuesto.pdf
 *   npm run simulate:whatsapp -- --location "40.4168,-3.7038" --location-name "Puerta del Sol"
 *
 * Which stack: the running `npm start` (read from .data/local-stack.json). Which WhatsApp number:
 * the one connected in Integrations (several: --to <business number> or --integration <id>). The
 * app secret is opened with the local stack's key (.data/secrets.key), or given with --app-secret.
 * Without the fakes (WHATSAPP_GRAPH_URL / OPENAI_BASE_URL set to real APIs) only a text or a
 * location can be simulated.
 */
import { readFileSync } from 'node:fs';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { LOCAL_CREDENTIALS, LOCAL_REGION } from '../local/services.js';
import { readState, stateFile } from '../local/state.js';
import { createDocumentClient, QueryCommand, ScanCommand } from '../src/adapters/aws/dynamo-document.js';
import { LocalSecretBox } from '../src/adapters/secrets/local-box.js';
import { parseCoordinates } from '../src/contract/whatsapp-media.js';
import { WHATSAPP_INTEGRATION } from '../src/domain/whatsapp/integration.js';
import { useOwnStack } from '../test/support/api.js';
import { registerFakeImage, registerFakeMedia, registerFakeTranscript } from '../test/support/media-fakes.js';
import {
  graphSends,
  locationMessage,
  mediaMessage,
  metaDelivery,
  postWebhook,
  signMetaBody,
  textMessage,
  waCustomer,
  type GraphSend,
  type InboundMessage,
  type MediaType,
} from '../test/support/whatsapp.js';

const repoDir = dirname(dirname(dirname(fileURLToPath(import.meta.url))));

export const USAGE = `Usage: npm run simulate:whatsapp -- <one message> [options]

One message:
  --text "…"                      a text message
  --voice <file.ogg>              a voice note (Ogg Opus, as WhatsApp records them)
  --audio <file>                  an audio file (mp3, m4a, ogg…)
  --transcript "…"                what the fake OpenAI hears in --voice / --audio (default: a fixed Spanish sentence)
  --image <file.jpg|png>          a photo (--caption "…"; --sees "…": what the fake model sees in it)
  --document <file.pdf|docx|txt>  a document (--caption "…", --filename name)
  --location "lat,lng"            a location (--location-name "…", --address "…")

Options:
  --from <number>        the customer's WhatsApp number with its country code (default 34600111222)
  --name "…"             the customer's profile name (default "Lucía Pérez")
  --to <number>          the business number the message is for, when several are connected
  --integration <id>     the WhatsApp integration, instead of --to
  --app-secret <secret>  the integration's app secret (default: opened with .data/secrets.key)
  --no-wait              do not wait for the agent's reply
  --timeout <seconds>    how long to wait for the reply (default 60)`;

const DEFAULT_TRANSCRIPT = 'Hola, buenas. Quería pedir cita con la Dra. Pérez, ¿tenéis hueco esta semana?';

/** Where the local stack is: its gateway, table, and fakes' control origins. */
export interface LocalTarget {
  apiUrl: string;
  mailboxUrl: string;
  dynamodb: string;
  tableName: string;
  /** The fake Graph API's origin (control API under /_test), null when the stack talks to Meta. */
  graphUrl: string | null;
  /** The fake OpenAI's origin, null when the stack talks to a real model API. */
  openaiUrl: string | null;
  /** Opens a sealed credential with the stack's local key (absent: --app-secret is needed). */
  openSecret?: (sealed: string) => Promise<string>;
}

/** What the developer is told (and the exit code: 2 for a usage or setup problem, 0 for --help). */
export class SimulateError extends Error {
  constructor(
    message: string,
    readonly exitCode = 2,
  ) {
    super(message);
  }
}

/** The fake's origin when `url` (WHATSAPP_GRAPH_URL, OPENAI_BASE_URL) is a loopback fake, else null. */
const loopbackOrigin = (url: string | undefined) => {
  if (!url) return null;
  const parsed = new URL(url);
  return ['127.0.0.1', 'localhost', '[::1]'].includes(parsed.hostname) ? parsed.origin : null;
};

/** The running (or last) `npm start` stack, from its state file. */
export function localTarget(dataDir = join(repoDir, '.data')): LocalTarget {
  const state = readState(dataDir);
  if (!state?.apiUrl || !state.endpoints || !state.tableName || !state.env) {
    throw new SimulateError(`No local stack found (${stateFile(dataDir)} is missing). Start it first: npm start`);
  }
  const box = new LocalSecretBox(join(resolve(state.env.LOCAL_DATA_DIR ?? dataDir), 'secrets.key'));
  return {
    apiUrl: state.apiUrl,
    mailboxUrl: state.mailboxUrl ?? '',
    dynamodb: state.endpoints.dynamodb,
    tableName: state.tableName,
    graphUrl: loopbackOrigin(state.env.WHATSAPP_GRAPH_URL),
    openaiUrl: loopbackOrigin(state.env.OPENAI_BASE_URL),
    openSecret: (sealed) => box.open(sealed),
  };
}

interface Integration {
  id: string;
  phoneId: string;
  businessId: string;
  phoneNumber: string;
  sealedAppSecret: string;
}

const digits = (text: string) => text.replace(/\D/g, '');

/** An active WhatsApp integration item as the script needs it; null for anything else. */
function integrationOf(item: Record<string, unknown>): Integration | null {
  const credentials = (item.credentials ?? {}) as Record<string, string | undefined>;
  const settings = (item.settings ?? {}) as Record<string, unknown>;
  if (item.entity !== 'integration' || item.sk !== `INTEGRATION#${WHATSAPP_INTEGRATION}` || item.isActive !== true || !credentials.phoneId) return null;
  return {
    id: String(item.id),
    phoneId: credentials.phoneId,
    businessId: credentials.businessId ?? '',
    phoneNumber: typeof settings.phoneNumber === 'string' ? settings.phoneNumber : '',
    sealedAppSecret: credentials.appSecret ?? '',
  };
}

/**
 * The active WhatsApp integrations of the local table: the one `--integration` names (a Query on
 * its id's index), else all of them (a scan: a developer's table is small; a test stack's is not,
 * so the tests name the integration).
 */
async function whatsappIntegrations(target: LocalTarget, id: string | undefined): Promise<Integration[]> {
  const db = createDocumentClient({ endpoint: target.dynamodb, region: LOCAL_REGION, credentials: async () => LOCAL_CREDENTIALS });
  if (id) {
    const { Items } = await db.send(
      new QueryCommand({
        TableName: target.tableName,
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': `INTEGRATION#${id}` },
      }),
    );
    return (Items ?? []).map(integrationOf).filter((i): i is Integration => i !== null);
  }
  const found: Integration[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await db.send(
      new ScanCommand({
        TableName: target.tableName,
        FilterExpression: 'entity = :entity AND sk = :sk',
        ExpressionAttributeValues: { ':entity': 'integration', ':sk': `INTEGRATION#${WHATSAPP_INTEGRATION}` },
        ...(start ? { ExclusiveStartKey: start } : {}),
      }),
    );
    for (const item of page.Items ?? []) {
      const integration = integrationOf(item);
      if (integration) found.push(integration);
    }
    start = page.LastEvaluatedKey;
  } while (start);
  return found;
}

async function pickIntegration(target: LocalTarget, options: { integration?: string; to?: string }): Promise<Integration> {
  const all = await whatsappIntegrations(target, options.integration);
  const matching = all.filter(
    (i) => (!options.integration || i.id === options.integration) && (!options.to || (digits(i.phoneNumber) !== '' && digits(i.phoneNumber) === digits(options.to))),
  );
  if (matching.length === 1) return matching[0]!;
  const list = all.map((i) => `  ${i.phoneNumber || '(no number)'}  --integration ${i.id}`).join('\n');
  if (matching.length === 0) {
    throw new SimulateError(
      all.length === 0
        ? 'No active WhatsApp integration in the local stack: connect one in Integrations → WhatsApp first (any ids and secrets work with the fake Graph API).'
        : `No active WhatsApp integration matches ${options.integration ? `--integration ${options.integration}` : `--to ${options.to}`}. Connected:\n${list}`,
    );
  }
  throw new SimulateError(`Several WhatsApp numbers are connected: choose one with --to <number> or --integration <id>.\n${list}`);
}

export interface SimulateResult {
  integrationId: string;
  /** The wamid of the customer's message. */
  wamid: string;
  /** The Meta media id registered with the fake Graph API (media messages). */
  mediaId?: string;
  /** What the agent sent back to the customer (empty with --no-wait or without the fake Graph API). */
  replies: GraphSend[];
}

const MIME_BY_EXTENSION: Record<string, string> = {
  '.ogg': 'audio/ogg; codecs=opus',
  '.opus': 'audio/ogg; codecs=opus',
  '.mp3': 'audio/mpeg',
  '.m4a': 'audio/mp4',
  '.aac': 'audio/aac',
  '.amr': 'audio/amr',
  '.wav': 'audio/wav',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.webp': 'image/webp',
  '.pdf': 'application/pdf',
  '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  '.doc': 'application/msword',
  '.txt': 'text/plain',
};

function readMedia(file: string): { bytes: Buffer; mimeType: string; fileName: string } {
  let bytes: Buffer;
  try {
    bytes = readFileSync(resolve(process.cwd(), file));
  } catch (error) {
    throw new SimulateError(`Cannot read ${file}: ${(error as Error).message}`);
  }
  return { bytes, mimeType: MIME_BY_EXTENSION[extname(file).toLowerCase()] ?? 'application/octet-stream', fileName: basename(file) };
}

/** The `--…` options, parsed; a SimulateError (with the usage) when they do not make one message. */
export function parseOptions(argv: string[]) {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv.filter((a) => a !== '--'),
      strict: true,
      options: {
        text: { type: 'string' },
        voice: { type: 'string' },
        audio: { type: 'string' },
        transcript: { type: 'string' },
        image: { type: 'string' },
        document: { type: 'string' },
        caption: { type: 'string' },
        sees: { type: 'string' },
        filename: { type: 'string' },
        location: { type: 'string' },
        'location-name': { type: 'string' },
        address: { type: 'string' },
        from: { type: 'string', default: '34600111222' },
        name: { type: 'string', default: 'Lucía Pérez' },
        to: { type: 'string' },
        integration: { type: 'string' },
        'app-secret': { type: 'string' },
        'no-wait': { type: 'boolean', default: false },
        timeout: { type: 'string', default: '60' },
        help: { type: 'boolean', default: false },
      },
    }));
  } catch (error) {
    throw new SimulateError(`${(error as Error).message}\n\n${USAGE}`);
  }
  if (values.help) throw new SimulateError(USAGE, 0);
  const kinds = (['text', 'voice', 'audio', 'image', 'document', 'location'] as const).filter((k) => values[k] !== undefined);
  if (kinds.length !== 1) throw new SimulateError(`Give exactly one message (${kinds.length ? kinds.map((k) => `--${k}`).join(', ') : 'none given'}).\n\n${USAGE}`);
  const from = digits(values.from);
  if (from.length < 8 || from.length > 15) throw new SimulateError(`--from ${values.from}: a WhatsApp number is 8 to 15 digits with its country code (e.g. 34600111222).`);
  const timeoutSeconds = Number(values.timeout);
  if (!Number.isFinite(timeoutSeconds) || timeoutSeconds <= 0) throw new SimulateError(`--timeout ${values.timeout}: seconds, more than 0.`);
  if (values.text !== undefined && !values.text.trim()) throw new SimulateError('--text: the message is empty.');
  const location = values.location === undefined ? undefined : parseCoordinates(values.location);
  if (values.location !== undefined && !location) throw new SimulateError(`--location ${values.location}: "latitude,longitude" (e.g. 40.4168,-3.7038) or a Google Maps link.`);
  return { ...values, kind: kinds[0]!, from, timeoutMs: timeoutSeconds * 1000, coordinates: location };
}

/**
 * Simulates one customer message against `target` and returns what was sent back. Throws a
 * SimulateError (a message for the developer) when something is missing or refused.
 */
export async function simulateWhatsApp(argv: string[], given?: LocalTarget): Promise<SimulateResult> {
  const options = parseOptions(argv);
  const target = given ?? localTarget();
  const integration = await pickIntegration(target, options);
  let appSecret = options['app-secret'];
  if (!appSecret) {
    if (!target.openSecret || !integration.sealedAppSecret) throw new SimulateError('The app secret cannot be read here: pass it with --app-secret.');
    appSecret = await target.openSecret(integration.sealedAppSecret).catch(() => {
      throw new SimulateError("The integration's app secret cannot be opened with this stack's key (.data/secrets.key): pass it with --app-secret.");
    });
  }
  // The helpers of test/support/whatsapp.ts read the stack's URLs from here.
  useOwnStack({
    apiUrl: target.apiUrl,
    mailboxUrl: target.mailboxUrl,
    endpoints: { dynamodb: target.dynamodb },
    tableName: target.tableName,
    whatsappGraphUrl: target.graphUrl,
    openaiUrl: target.openaiUrl,
  });

  const customer = waCustomer(options.name, options.from);
  const business = { phoneId: integration.phoneId, businessId: integration.businessId, displayPhoneNumber: integration.phoneNumber };
  let message: InboundMessage;
  let mediaId: string | undefined;
  if (options.kind === 'text') {
    message = textMessage(customer, options.text!);
  } else if (options.kind === 'location') {
    message = locationMessage(customer, {
      ...options.coordinates!,
      ...(options['location-name'] ? { name: options['location-name'] } : {}),
      ...(options.address ? { address: options.address } : {}),
    });
  } else {
    if (!target.graphUrl) throw new SimulateError('Media needs the fake Graph API: this stack talks to a real one (WHATSAPP_GRAPH_URL).');
    const file = readMedia(options[options.kind]!);
    const type: MediaType = options.kind === 'voice' ? 'audio' : options.kind;
    const registered = await registerFakeMedia(target.graphUrl, file.bytes, { mimeType: file.mimeType });
    mediaId = registered.id;
    if (type === 'image' && options.sees !== undefined && target.openaiUrl) await registerFakeImage(target.openaiUrl, file.bytes, options.sees);
    if (type === 'audio') {
      if (!target.openaiUrl) throw new SimulateError('A voice note needs the fake OpenAI to hear it: this stack talks to a real model API (OPENAI_BASE_URL).');
      await registerFakeTranscript(target.openaiUrl, file.bytes, { text: options.transcript ?? DEFAULT_TRANSCRIPT, language: 'es' });
    }
    message = mediaMessage(customer, type, {
      mediaId: registered.id,
      sha256: registered.sha256,
      mimeType: file.mimeType,
      ...(options.caption !== undefined ? { caption: options.caption } : {}),
      ...(type === 'document' ? { filename: options.filename ?? file.fileName } : {}),
      ...(options.kind === 'voice' ? { voice: true } : {}),
    });
  }

  const sentBefore = target.graphUrl ? (await graphSends(integration.phoneId)).length : 0;
  const body = metaDelivery(business, { messages: [message] });
  const res = await postWebhook(integration.id, body, signMetaBody(body, appSecret));
  if (res.status === 401) throw new SimulateError('The webhook refused the signature: the app secret is not this integration\'s (--app-secret).');
  if (res.status !== 200) throw new SimulateError(`The webhook answered ${res.status}: ${res.text}`);
  const result: SimulateResult = { integrationId: integration.id, wamid: String(message.message.id), ...(mediaId ? { mediaId } : {}), replies: [] };
  if (options['no-wait'] || !target.graphUrl) return result;

  // The agent's reply, as the fake Graph API recorded it (a file or buttons may come with a text: a moment more for the rest).
  const deadline = Date.now() + options.timeoutMs;
  let settleUntil = Infinity;
  while (Date.now() < Math.min(deadline, settleUntil)) {
    const replies = (await graphSends(integration.phoneId)).slice(sentBefore).filter((s) => digits(s.to) === customer.waId);
    if (replies.length > result.replies.length) {
      result.replies = replies;
      settleUntil = Date.now() + 1500;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return result;
}

/** What a recorded send says, on one line. */
export function describeSend(send: GraphSend): string {
  if (send.status !== 200) return `(${send.type}, refused by the Graph API: ${send.status})`;
  if (send.type === 'text') return send.text;
  const payload = send.payload as Record<string, Record<string, unknown> | undefined>;
  const part = payload[send.type] ?? {};
  if (send.type === 'location') return `[location] ${String(part.name ?? '')} ${String(part.address ?? '')} (${String(part.latitude)}, ${String(part.longitude)})`.replace(/\s+/g, ' ');
  if (send.type === 'interactive') return `[interactive] ${JSON.stringify((part.body as { text?: string } | undefined)?.text ?? '')} ${JSON.stringify(part.action ?? {})}`;
  return `[${send.type}] ${String(part.caption ?? part.filename ?? part.id ?? '')}`;
}

export async function main(argv: string[], target?: LocalTarget): Promise<number> {
  try {
    const result = await simulateWhatsApp(argv, target);
    console.log(`Delivered ${result.wamid}${result.mediaId ? ` (media ${result.mediaId})` : ''} to integration ${result.integrationId}.`);
    if (argv.includes('--no-wait')) return 0;
    if (!result.replies.length) {
      console.log('No reply yet: is an agent enabled and ChatGPT connected? The inbox shows the message and why it was not answered.');
      return 1;
    }
    for (const send of result.replies) console.log(`Agent → ${send.to}: ${describeSend(send)}`);
    return 0;
  } catch (error) {
    if (!(error instanceof SimulateError)) throw error;
    (error.exitCode === 0 ? console.log : console.error)(error.message);
    return error.exitCode;
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await main(process.argv.slice(2)).catch((error: unknown) => {
    const { code = '', message = String(error) } = error as { code?: string; message?: string };
    console.error(code === 'ECONNREFUSED' || /fetch failed/.test(message) ? 'The local stack is not running: start it first (npm start).' : message);
    return 1;
  });
}
