/**
 * Contacts at scale (part of `npm run bench`): the local stack on a throw-away data dir, one user
 * with an unlimited plan and N contacts (default 50,000) loaded through the repository's own
 * write path (one TransactWriteItems per contact, in parallel), then p50/p95 through the local
 * gateway with a real token of: the first page, page 200 (limit 50 → ranks 9,950..9,999), a
 * name search and a formatted-phone search, with the DynamoDB requests each call made.
 *
 *   --contacts=N   how many contacts to load (default 2000, so `npm run bench` stays a few minutes;
 *                  the issue's scale is --contacts=50000: DynamoDB Local spends ~2 ms per item in a
 *                  transaction, so that load takes ~25 min on a 2-CPU machine, the reads do not)
 *   --runs=N       requests per measured call (default 30)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { startLocalStack } from '../local/stack.js';
import { documentClient } from '../src/adapters/aws/dynamo.js';
import { DynamoContactRepository } from '../src/adapters/dynamo/contacts.js';
import { padSeq } from '../src/domain/contacts/contact-id.js';
import { shortNameOf } from '../src/domain/contacts/records.js';
import type { StoredContact } from '../src/domain/contacts/ports.js';
import { contactTokens } from '../src/domain/contacts/text.js';
import { testDocumentClientAt } from '../test/support/document-clients.js';
import { arg, percentile, registeredToken, table } from './bench-common.js';

const CONTACTS = arg('contacts', 2_000);
const RUNS = arg('runs', 30);
const LOAD_CONCURRENCY = 48;
const TARGET_MS = 300;

const FIRST = ['José', 'María', 'Ana', 'Luis', 'Carmen', 'Jorge', 'Lucía', 'Pedro', 'Sofía', 'Miguel', 'Elena', 'Raúl', 'Inés', 'Tomás', 'Noemí', 'Andrés', 'Beatriz', 'Óscar', 'Julia', 'Iván'];
const LAST = ['García', 'Martínez', 'López', 'Sánchez', 'Pérez', 'Gómez', 'Martín', 'Jiménez', 'Ruiz', 'Hernández', 'Díaz', 'Moreno', 'Muñoz', 'Álvarez', 'Romero', 'Alonso', 'Gutiérrez', 'Navarro', 'Torres', 'Domínguez'];
/** Unique, valid US numbers: +1 415 2xx xxxx. */
const phoneOf = (i: number) => `+1415${String(2_000_000 + i).padStart(7, '0')}`;

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'agentdesk-bench-contacts-'));
const stack = await startLocalStack({ dataDir, quiet: true });
try {
  console.log(`\nContacts at scale: ${CONTACTS.toLocaleString('en-US')} contacts for one user on DynamoDB Local, through the local gateway (${RUNS} requests per call)\n`);
  const { token, userId } = await registeredToken(stack.apiUrl, stack.mailboxUrl);
  const raw = testDocumentClientAt(stack.endpoints.dynamodb);
  await raw.send(
    new PutCommand({
      TableName: stack.tableName,
      Item: { pk: `USER#${userId}`, sk: 'SUBSCRIPTION', entity: 'subscription', userId, plan: 'enterprise', status: 'active', currentPeriodStart: new Date().toISOString(), version: 1 },
    }),
  );

  // ---- load through the repository's write path (the contact create transaction)
  const repo = new DynamoContactRepository(raw, stack.tableName);
  const t0 = performance.now();
  const first = await repo.allocateSeq(userId, CONTACTS);
  const at = new Date().toISOString();
  let next = 0;
  const lane = async () => {
    while (next < CONTACTS) {
      const i = next++;
      const name = `${FIRST[i % FIRST.length]} ${LAST[Math.floor(i / FIRST.length) % LAST.length]}`;
      const base = {
        id: `${padSeq(first + i)}${(i % 1_000_000).toString(36).padStart(6, '0')}`,
        seq: first + i,
        name,
        shortName: shortNameOf(name),
        phoneNumber: phoneOf(i),
        email: '',
        customFields: {},
        source: 'manual' as const,
        isWAContact: false,
        notes: '',
        tags: [],
        createdAt: at,
        updatedAt: at,
      };
      const contact: StoredContact = { ...base, tokens: contactTokens(base) };
      await repo.insert(userId, contact);
    }
  };
  await Promise.all(Array.from({ length: LOAD_CONCURRENCY }, lane));
  const loadSeconds = (performance.now() - t0) / 1000;
  console.log(`Loaded ${CONTACTS.toLocaleString('en-US')} contacts in ${loadSeconds.toFixed(1)} s (${Math.round(CONTACTS / loadSeconds)}/s, ${LOAD_CONCURRENCY} parallel transactions)\n`);

  // ---- count the handler's DynamoDB requests (the gateway runs the handlers in this process)
  let requests = 0;
  const client = documentClient();
  const send = client.send.bind(client);
  client.send = (command) => (requests++, send(command));

  const target = Math.floor(CONTACTS / 2);
  const scenarios: { name: string; path: string; check: (body: { data: unknown[]; pagination: { totalContacts: number } }) => string }[] = [
    { name: 'first page (limit 10)', path: '/api/contacts', check: (b) => `${b.data.length} rows of ${b.pagination.totalContacts}` },
    { name: 'page 200 (limit 50)', path: '/api/contacts?page=200&limit=50', check: (b) => `${b.data.length} rows of ${b.pagination.totalContacts}` },
    {
      name: 'name search "jose garcia"',
      path: `/api/contacts?search=${encodeURIComponent('jose garcia')}`,
      check: (b) => `${b.pagination.totalContacts} matches`,
    },
    {
      name: `phone search "${phoneOf(target).replace(/^\+1(\d{3})(\d{3})(\d{4})$/, '($1) $2-$3')}"`,
      path: `/api/contacts?search=${encodeURIComponent(phoneOf(target).replace(/^\+1(\d{3})(\d{3})(\d{4})$/, '($1) $2-$3'))}`,
      check: (b) => `${b.pagination.totalContacts} match`,
    },
    { name: 'stats', path: '/api/contacts/stats', check: () => '' },
  ];
  const rows: string[][] = [];
  let failures = 0;
  for (const s of scenarios) {
    const times: number[] = [];
    const counts: number[] = [];
    let note = '';
    for (let i = 0; i < RUNS + 2; i++) {
      requests = 0;
      const t = performance.now();
      const res = await fetch(`${stack.apiUrl}${s.path}`, { headers: { authorization: `Bearer ${token}` } });
      const body = (await res.json()) as { data: unknown[]; pagination: { totalContacts: number } };
      const ms = performance.now() - t;
      if (res.status !== 200) throw new Error(`${s.path}: ${res.status} ${JSON.stringify(body)}`);
      if (i < 2) continue; // warm-up: module load, first connections
      times.push(ms);
      counts.push(requests);
      note = s.check(body);
    }
    const p95 = percentile(times, 95);
    if (p95 > TARGET_MS) failures++;
    rows.push([
      s.name,
      percentile(times, 50).toFixed(1),
      `${p95.toFixed(1)} ${p95 <= TARGET_MS ? '✓' : '✗'}`,
      Math.min(...counts) === Math.max(...counts) ? String(counts[0]) : `${Math.min(...counts)}-${Math.max(...counts)}`,
      note,
    ]);
  }
  console.log(table(['call', 'p50 ms', `p95 ms (≤${TARGET_MS})`, 'DynamoDB requests', 'result'], rows));
  console.log(`\n${failures === 0 ? 'Contacts latency target met.' : `Contacts latency target missed by ${failures} call(s).`}`);
} finally {
  await stack.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
