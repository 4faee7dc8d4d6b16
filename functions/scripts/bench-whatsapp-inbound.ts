/**
 * WhatsApp inbound-to-reply overhead (part of `npm run bench`): the whatsapp-inbound pipeline
 * (domain/whatsapp/inbound.ts) over the real DynamoDB adapters on DynamoDB Local — contact
 * upsert, find/open conversation, message + wamid claim, reply claim, usage reservation, agent
 * and integration reads, history, the agent runtime, the reply stored pending → sent, the
 * conversation touched, the claim finished — with the model and the Graph API taken out: an
 * instant ChatModel and an instant GraphClient. Target: p95 ≤ 150 ms per message.
 *
 * Rows: a customer's first message (contact created, conversation opened), a follow-up in an open
 * conversation, a redelivered wamid (answered before: nothing to do), a status webhook, and a
 * burst of follow-ups processed 10 at a time. The target applies to the one-at-a-time rows: DynamoDB
 * Local executes writes one after another (one SQLite writer), so under a burst each message waits
 * for the others' ~10 writes — the calibration rows show the same queueing for a single PutItem;
 * DynamoDB spreads those writes over partitions.
 *
 *   --runs=N   measured messages per row (default 100, after 10 warm-up messages)
 *   --trace    print the DynamoDB requests of one new customer's first message (start, end, operation, keys)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { freePort } from '../local/ports.js';
import { ensureTable, startDynamo } from '../local/services.js';
import { DynamoAgentRepository } from '../src/adapters/dynamo/agents.js';
import { DynamoContactRepository } from '../src/adapters/dynamo/contacts.js';
import { DynamoConversationRepository } from '../src/adapters/dynamo/conversations.js';
import { DynamoMessageRepository } from '../src/adapters/dynamo/messages.js';
import { DynamoPrivacySettingsStore } from '../src/adapters/dynamo/privacy-settings.js';
import { DynamoSubscriptionRepository, DynamoUsageRepository } from '../src/adapters/dynamo/subscriptions.js';
import { newAgentRecord } from '../src/domain/agents/ports.js';
import type { ChatModel, Embedder } from '../src/domain/ai/ports.js';
import { createUsageService } from '../src/domain/billing/usage.js';
import { createContactService } from '../src/domain/contacts/service.js';
import { createInboundPipeline } from '../src/domain/whatsapp/inbound.js';
import type { GraphClient, WhatsAppInboundJob } from '../src/domain/whatsapp/ports.js';
import { newId } from '../src/lib/ids.js';
import { testDocumentClientAt } from '../test/support/document-clients.js';
import { arg, longestChain, percentile, table } from './bench-common.js';

const RUNS = arg('runs', 100);
const WARMUP = 10;
const TARGET_MS = 150;
const BURST = 10;
const TABLE = 'agentdesk-bench-wa';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'agentdesk-bench-wa-'));
const dynamo = await startDynamo(dataDir, await freePort());
try {
  await ensureTable(dynamo.endpoint, TABLE);
  // Every DynamoDB request of the pipeline is counted: a figure the machine's load does not change.
  let requests = 0;
  /** --trace: the requests of one message, with their start and end (ms from the message's start). */
  let trace: { t0: number; lines: string[] } | null = null;
  /** The requests of the message being timed, as [start, end]: their longest chain one after another is its round trips in sequence. */
  let spans: Array<[number, number]> | null = null;
  const counting: typeof fetch = async (input, init) => {
    requests++;
    const t = performance.now();
    if (!trace) {
      const res = await fetch(input, init);
      spans?.push([t, performance.now()]);
      return res;
    }
    const started = t - trace.t0;
    const res = await fetch(input, init);
    const target = new Headers(init?.headers).get('x-amz-target')?.split('.')[1] ?? '?';
    const body = JSON.parse(String(init?.body ?? '{}')) as Record<string, unknown>;
    const keys = JSON.stringify(body.Key ?? body.Item ?? body.ExpressionAttributeValues ?? body.TransactItems ?? body.RequestItems ?? '').replace(/"(S|N)":/g, '').slice(0, 140);
    trace?.lines.push(`${started.toFixed(1).padStart(7)} ${(performance.now() - trace.t0).toFixed(1).padStart(7)}  ${target.padEnd(18)} ${keys}`);
    return res;
  };
  const db = testDocumentClientAt(dynamo.endpoint, { fetch: counting });
  const userId = `bench-${Date.now()}`;
  const now = new Date().toISOString();
  await db.send(
    new PutCommand({
      TableName: TABLE,
      Item: { pk: `USER#${userId}`, sk: 'SUBSCRIPTION', entity: 'subscription', userId, plan: 'enterprise', status: 'active', currentPeriodStart: now, version: 1 },
    }),
  );
  const agents = new DynamoAgentRepository(db, TABLE);
  await agents.createAgent(userId, { ...newAgentRecord(newId(), 'Sonia', now), description: 'Receptionist', objective: 'Answer', instructions: 'Be brief', enabled: true });

  const instantModel: ChatModel = { complete: async (req) => ({ content: `Echo: ${String(req.messages.at(-1)?.content ?? '')}`, toolCalls: [], finishReason: 'stop' }) };
  const instantEmbedder: Embedder = { embed: async (texts) => texts.map(() => new Float32Array(1536)) };
  let sent = 0;
  const instantGraph: GraphClient = {
    sendText: async () => ({ messageId: `wamid.bench${++sent}` }),
    getPhoneNumber: async () => ({ id: '1', displayPhoneNumber: '+14155550100', verifiedName: 'Bench' }),
  };
  const usage = createUsageService({ subscriptions: new DynamoSubscriptionRepository(db, TABLE), usage: new DynamoUsageRepository(db, TABLE) });
  // Issue 33: as in production, every message and conversation is stamped with the account's retention (one settings read a minute).
  const messages = new DynamoMessageRepository(db, TABLE, Date.now, true, new DynamoPrivacySettingsStore(db, TABLE, async () => 'ES'));
  const pipeline = createInboundPipeline({
    conversations: new DynamoConversationRepository(db, TABLE, messages),
    messages,
    contacts: createContactService({ contacts: new DynamoContactRepository(db, TABLE), usage, links: { unlinkContact: async () => undefined }, defaultCountry: 'US' }),
    agents,
    ai: { forUser: async () => ({ settings: { model: 'gpt-4o', temperature: 0.7, maxTokens: 500, systemPrompt: '', baseUrl: '' }, chat: instantModel, embedder: instantEmbedder }) },
    retriever: { search: async () => [] },
    tools: { execute: async () => ({ ok: true, result: '' }) },
    usage,
    graph: instantGraph,
    connection: async () => ({ credentials: { bearerToken: 't', businessId: 'b', phoneId: '1' }, phoneNumber: '+14155550100' }),
    newId: (t) => newId(t),
  });

  let seq = 0;
  const delivery = (waId: string, body: unknown): WhatsAppInboundJob => ({ userId, integrationId: 'bench', receivedAt: new Date().toISOString(), body: JSON.stringify(body) });
  const textDelivery = (waId: string, wamid: string) =>
    delivery(waId, {
      object: 'whatsapp_business_account',
      entry: [
        {
          id: 'waba',
          changes: [
            {
              field: 'messages',
              value: {
                messaging_product: 'whatsapp',
                metadata: { display_phone_number: '14155550100', phone_number_id: '1' },
                contacts: [{ profile: { name: `Customer ${waId}` }, wa_id: waId }],
                messages: [{ from: waId, id: wamid, timestamp: String(Math.floor(Date.now() / 1000)), type: 'text', text: { body: `question ${++seq}` } }],
              },
            },
          ],
        },
      ],
    });
  const statusDelivery = (wamid: string, waId: string) =>
    delivery(waId, {
      object: 'whatsapp_business_account',
      entry: [{ id: 'waba', changes: [{ field: 'messages', value: { metadata: { phone_number_id: '1' }, statuses: [{ id: wamid, status: 'delivered', timestamp: '1', recipient_id: waId }] } }] }],
    });

  /** DynamoDB requests of each timed message, and how many of them ran one after another, by row. */
  const requestsOf = new Map<number[], number[]>();
  const sequentialOf = new Map<number[], number[]>();
  const time = async (work: () => Promise<unknown>, row?: number[]) => {
    const before = requests;
    spans = [];
    const t0 = performance.now();
    await work();
    const ms = performance.now() - t0;
    if (row) {
      requestsOf.set(row, [...(requestsOf.get(row) ?? []), requests - before]);
      sequentialOf.set(row, [...(sequentialOf.get(row) ?? []), longestChain(spans)]);
    }
    spans = null;
    return ms;
  };
  const waId = (i: number) => `1415${String(5_000_000 + i).padStart(7, '0')}`;

  // Warm-up (connections, JIT).
  for (let i = 0; i < WARMUP; i++) await pipeline.process(textDelivery(waId(900_000 + i), `wamid.warm${i}`), 'bench');

  if (process.argv.includes('--trace')) {
    trace = { t0: performance.now(), lines: [] };
    await pipeline.process(textDelivery(waId(800_000), 'wamid.trace'), 'bench');
    console.log(`\nDynamoDB requests of a new customer's first message (start, end in ms):\n${trace.lines.join('\n')}\n`);
    trace = null;
  }

  const first: number[] = [];
  const followUp: number[] = [];
  const duplicate: number[] = [];
  const status: number[] = [];
  for (let i = 0; i < RUNS; i++) first.push(await time(() => pipeline.process(textDelivery(waId(i), `wamid.first${i}`), 'bench'), first));
  for (let i = 0; i < RUNS; i++) followUp.push(await time(() => pipeline.process(textDelivery(waId(i), `wamid.follow${i}`), 'bench'), followUp));
  for (let i = 0; i < RUNS; i++) duplicate.push(await time(() => pipeline.process(textDelivery(waId(i), `wamid.follow${i}`), 'bench'), duplicate));
  for (let i = 0; i < RUNS; i++) status.push(await time(() => pipeline.process(statusDelivery(`wamid.bench${WARMUP + i + 1}`, waId(i)), 'bench'), status));
  const burst: number[] = [];
  for (let i = 0; i < RUNS; i += BURST) {
    const times = await Promise.all(
      Array.from({ length: Math.min(BURST, RUNS - i) }, (_, j) => time(() => pipeline.process(textDelivery(waId(i + j), `wamid.burst${i + j}`), 'bench'))),
    );
    burst.push(...times);
  }

  // Calibration: DynamoDB Local runs writes one at a time, so a burst's latency is its queue.
  const put = (i: number) => db.send(new PutCommand({ TableName: TABLE, Item: { pk: `USER#${userId}#CAL`, sk: String(i), v: i } }));
  const putSerial: number[] = [];
  for (let i = 0; i < RUNS; i++) putSerial.push(await time(() => put(i)));
  const putBurst: number[] = [];
  for (let i = 0; i < RUNS; i += BURST) putBurst.push(...(await Promise.all(Array.from({ length: BURST }, (_, j) => time(() => put(RUNS + i + j))))));

  const row = (name: string, xs: number[], target = true) => [
    name,
    String(xs.length),
    percentile(xs, 50).toFixed(1),
    percentile(xs, 95).toFixed(1),
    target ? (percentile(xs, 95) <= TARGET_MS ? `≤ ${TARGET_MS} ✓` : `≤ ${TARGET_MS} ✗`) : '—',
    requestsOf.has(xs) ? String(percentile(requestsOf.get(xs)!, 50)) : '—',
    sequentialOf.has(xs) ? String(percentile(sequentialOf.get(xs)!, 50)) : '—',
  ];
  console.log(`\nWhatsApp inbound → reply, model and Graph API instant, DynamoDB Local (${RUNS} messages per row, ms)\n`);
  console.log(
    table(
      ['message', 'n', 'p50', 'p95', 'target p95', 'DynamoDB requests (median)', 'in sequence (median)'],
      [
        row('first message of a customer (contact + conversation created, reply sent)', first),
        row('follow-up in an open conversation (reply sent)', followUp),
        row('redelivered wamid (already answered)', duplicate),
        row('status webhook (delivered)', status, false),
        row(`burst: ${BURST} follow-ups processed at once (per message; DynamoDB Local queues the writes)`, burst, false),
        row('calibration: one PutItem on DynamoDB Local', putSerial, false),
        row(`calibration: one PutItem, ${BURST} at once`, putBurst, false),
      ],
    ),
  );
  const worst = Math.max(percentile(first, 95), percentile(followUp, 95));
  if (worst > TARGET_MS) {
    console.log(`\nOver target: p95 ${worst.toFixed(1)} ms > ${TARGET_MS} ms`);
    process.exitCode = 1;
  }
} finally {
  await dynamo.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
