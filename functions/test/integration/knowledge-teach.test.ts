/**
 * Issue 18 through the local gateway: honest refusal and the "teach the agent" loop. A Spanish
 * agent answers from an uploaded PDF (the source shows the passage, its page and section), says
 * it does not know what the PDF does not hold (the fake OpenAI's refusal in Spanish), records the
 * question; the owner sees two wordings as one group, answers it (a knowledge entry) and the next
 * chat answers from the entry. Dismissing, entries CRUD with ownership and bad bodies, the
 * knowledge settings, and a WhatsApp refusal (offering a person) recorded with its conversation.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Agent, AgentFile, ChatReply, KnowledgeEntry, UnansweredGroup } from '../../src/contract/agents.js';
import { agentMessages, DEFAULT_MIN_RELEVANCE } from '../../src/contract/agents.js';
import { BatchWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoAgentRepository } from '../../src/adapters/dynamo/agents.js';
import { DynamoUnansweredStore, unansweredPk, unansweredSk } from '../../src/adapters/dynamo/unanswered.js';
import { newAgentRecord } from '../../src/domain/agents/ports.js';
import { newId } from '../../src/lib/ids.js';
import { buildPdf } from '../fixtures/knowledge/builders.js';
import { api, db, itemsOf, tableName, until } from '../support/api.js';
import { agentsUser, type AgentsUser, call, connectChatGpt, createAgent, createEnabledAgent, uploadMultipart } from '../support/agents-api.js';
import { connectWhatsApp, graphSends, metaDelivery, postWebhook, signMetaBody, textMessage, waCustomer } from '../support/whatsapp.js';

const REFUSAL_ES = 'Lo siento, no tengo esa información.';
const OFFER_ES = '¿Quieres que te pase con una persona del equipo?';

/** An enabled agent (new agents start disabled until they have instructions) answering in Spanish. */
async function spanishAgent(user: AgentsUser): Promise<Agent> {
  const agent = await createEnabledAgent(user, 'Sonia');
  const res = await call<Agent>(user, 'PUT', `/api/agents/${agent._id}`, { language: 'es' });
  if (res.status !== 200 || !res.body.data) throw new Error(`agent update failed: ${res.status} ${res.body.message}`);
  return res.body.data;
}

/** The clinic's PDF: an introduction on page 1, the opening hours table on page 2. */
const clinicPdf = () =>
  buildPdf(
    [
      { heading: 'Clínica Dental Sonrisa', paragraphs: ['Somos una clínica familiar en el centro de Valencia con más de veinte años de experiencia.'] },
      {
        heading: 'Horario',
        blocks: [
          {
            kind: 'table',
            header: true,
            rows: [
              ['Día', 'Horario'],
              ['Lunes a jueves', '9:00–20:00'],
              ['Viernes', '9:00–15:00'],
              ['Sábados', '10:00–14:00'],
            ],
          },
        ],
      },
    ],
    'Clínica Dental Sonrisa',
  );

async function uploadAndWait(user: AgentsUser, agentId: string, file: { name: string; type: string; bytes: Uint8Array | string }): Promise<AgentFile> {
  const upload = await uploadMultipart(user, agentId, [file]);
  expect(upload.status).toBe(201);
  const id = upload.body.data![0]!._id;
  return until(async () => {
    const files = (await call<AgentFile[]>(user, 'GET', `/api/agents/${agentId}/files`)).body.data ?? [];
    const f = files.find((x) => x._id === id);
    if (f?.status === 'failed') throw new Error(`ingestion failed: ${f.error}`);
    return f?.status === 'completed' ? f : undefined;
  }, 'the document ingested');
}

const chat = async (user: AgentsUser, agentId: string, message: string): Promise<ChatReply> => {
  const res = await api<ChatReply>('POST', `/api/agents/${agentId}/chat`, { token: user.token, body: { message, messages: [] } });
  if (res.status !== 200 || !res.body.data) throw new Error(`chat failed: ${res.status} ${res.body.message}`);
  return res.body.data;
};

const unanswered = async (user: AgentsUser, agentId: string): Promise<UnansweredGroup[]> => {
  const res = await call<{ groups: UnansweredGroup[] }>(user, 'GET', `/api/agents/${agentId}/unanswered`);
  expect(res.status).toBe(200);
  return res.body.data!.groups;
};

describe('honest refusal and the teach-the-agent loop (issue 18)', () => {
  it('answers from the PDF with page and section, refuses in Spanish what it does not hold, groups two wordings, and answers from the owner’s entry afterwards', async () => {
    // Arrange
    const user = await agentsUser();
    await connectChatGpt(user);
    const agent = await spanishAgent(user);
    expect(agent).toMatchObject({ language: 'es', minRelevance: DEFAULT_MIN_RELEVANCE, entries: [] });
    const pdf = await uploadAndWait(user, agent._id, { name: 'sonrisa.pdf', type: 'application/pdf', bytes: await clinicPdf() });

    // Act + Assert: answered from the PDF, the source shows the row, its page and section
    const answered = await chat(user, agent._id, '¿Qué horario tenéis los viernes?');
    expect(answered.sources[0]).toMatchObject({ name: 'sonrisa.pdf', kind: 'file', sourceId: pdf._id, page: 2 });
    expect(answered.sources[0]!.section).toContain('Horario');
    expect(answered.sources[0]!.excerpt).toContain('Viernes');
    expect(answered.sources[0]!.score).toBeGreaterThanOrEqual(DEFAULT_MIN_RELEVANCE);
    const marked = answered.sources[0]!.highlights.map(([a, b]) => answered.sources[0]!.excerpt.slice(a, b).toLowerCase());
    expect(marked).toContain('viernes');
    expect(answered.reply).not.toContain(REFUSAL_ES);

    // Two wordings of a question the PDF cannot answer: refused in Spanish, no sources; a greeting is not a question
    const first = await chat(user, agent._id, '¿Tenéis aparcamiento para clientes?');
    const second = await chat(user, agent._id, '¿Hay aparcamiento para los clientes?');
    await chat(user, agent._id, '¡Hola!');
    for (const reply of [first, second]) {
      expect(reply.reply).toBe(REFUSAL_ES);
      expect(reply.sources).toEqual([]);
    }

    const groups = await unanswered(user, agent._id);
    expect(groups).toHaveLength(1);
    expect(groups[0]).toMatchObject({ question: '¿Hay aparcamiento para los clientes?', count: 2 });
    expect(groups[0]!.questions.map((q) => [q.question, q.channel])).toEqual([
      ['¿Hay aparcamiento para los clientes?', 'chat'],
      ['¿Tenéis aparcamiento para clientes?', 'chat'],
    ]);

    // The owner answers the group: a knowledge entry, and the questions leave the list
    const answer = await call<KnowledgeEntry>(user, 'POST', `/api/agents/${agent._id}/unanswered/answer`, {
      ids: groups[0]!.questions.map((q) => q._id),
      question: '¿Tenéis aparcamiento para clientes?',
      answer: 'Sí: aparcamiento gratuito para clientes en la calle Mayor 3.',
    });
    expect(answer.status).toBe(201);
    expect(answer.body.message).toBe(agentMessages.unansweredAnswered);
    expect(answer.body.data).toMatchObject({ question: '¿Tenéis aparcamiento para clientes?', answer: 'Sí: aparcamiento gratuito para clientes en la calle Mayor 3.' });
    expect(await unanswered(user, agent._id)).toEqual([]);
    const stored = (await call<Agent>(user, 'GET', `/api/agents/${agent._id}`)).body.data!;
    expect(stored.entries).toEqual([answer.body.data]);

    // The same question now finds the entry
    const taught = await chat(user, agent._id, '¿Tenéis aparcamiento para clientes?');
    expect(taught.sources[0]).toMatchObject({ kind: 'entry', sourceId: answer.body.data!._id, name: '¿Tenéis aparcamiento para clientes?' });
    expect(taught.reply).not.toBe(REFUSAL_ES);
    expect(await unanswered(user, agent._id)).toEqual([]);
  });

  it('dismissing removes the questions; dismissing them again is a 404; deleting the agent removes its questions and entries', async () => {
    const user = await agentsUser();
    await connectChatGpt(user);
    const agent = await spanishAgent(user);
    await call(user, 'POST', `/api/agents/${agent._id}/entries`, { question: '¿Cuál es el horario?', answer: 'De 9:00 a 20:00.' });
    await chat(user, agent._id, '¿Aceptáis pagos con bizum?');
    const [group] = await unanswered(user, agent._id);
    expect(group).toMatchObject({ count: 1, question: '¿Aceptáis pagos con bizum?' });
    const ids = group!.questions.map((q) => q._id);

    const dismissed = await call(user, 'POST', `/api/agents/${agent._id}/unanswered/dismiss`, { ids });

    expect(dismissed.status).toBe(200);
    expect(dismissed.body.message).toBe(agentMessages.unansweredDismissed);
    expect(await unanswered(user, agent._id)).toEqual([]);
    const again = await call(user, 'POST', `/api/agents/${agent._id}/unanswered/dismiss`, { ids });
    expect(again.status).toBe(404);
    expect(again.body.message).toBe(agentMessages.unansweredNotFound);
    // Deleting the agent takes its unanswered questions, entries and their chunks with it.
    await chat(user, agent._id, '¿Aceptáis pagos con tarjeta?');
    expect(await itemsOf(unansweredPk(user.userId, agent._id))).toHaveLength(1);
    expect((await call(user, 'DELETE', `/api/agents/${agent._id}`)).status).toBe(200);
    expect(await itemsOf(unansweredPk(user.userId, agent._id))).toEqual([]);
    expect(await itemsOf(`USER#${user.userId}#KB#${agent._id}`)).toEqual([]);
  });

  it('entries: create, list, update, delete; another user’s agent or entry is a 404; bad bodies are 400 with the message', async () => {
    const owner = await agentsUser();
    const other = await agentsUser();
    const agent = await createAgent(owner, 'Sonia');
    const base = `/api/agents/${agent._id}/entries`;

    const created = await call<KnowledgeEntry>(owner, 'POST', base, { question: '  ¿Hay wifi?  ', answer: 'Sí, la clave está en recepción.' });
    expect(created.status).toBe(201);
    expect(created.body.message).toBe(agentMessages.entryCreated);
    const entry = created.body.data!;
    expect(entry).toMatchObject({ question: '¿Hay wifi?', answer: 'Sí, la clave está en recepción.' });
    expect((await call<KnowledgeEntry[]>(owner, 'GET', base)).body.data).toEqual([entry]);

    const updated = await call<KnowledgeEntry>(owner, 'PUT', `${base}/${entry._id}`, { question: '¿Tenéis wifi?', answer: 'Sí, gratis.' });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({ _id: entry._id, question: '¿Tenéis wifi?', answer: 'Sí, gratis.' });

    // Another user: the agent and its entry do not exist for them
    for (const [method, path, body] of [
      ['GET', base, undefined],
      ['POST', base, { question: 'q', answer: 'a' }],
      ['PUT', `${base}/${entry._id}`, { question: 'q', answer: 'a' }],
      ['DELETE', `${base}/${entry._id}`, undefined],
      ['GET', `/api/agents/${agent._id}/unanswered`, undefined],
      ['POST', `/api/agents/${agent._id}/unanswered/dismiss`, { ids: ['x'] }],
    ] as const) {
      const res = await call(other, method, path, body);
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.message).toBe(agentMessages.notFound);
    }
    const missing = await call(owner, 'PUT', `${base}/${agent._id}`, { question: 'q', answer: 'a' });
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe(agentMessages.entryNotFound);

    // Bad bodies
    const bad: [unknown, string][] = [
      [{}, agentMessages.entryQuestionRequired],
      [{ question: '   ', answer: 'a' }, agentMessages.entryQuestionRequired],
      [{ question: 'q' }, agentMessages.entryAnswerRequired],
      [{ question: 'q'.repeat(301), answer: 'a' }, agentMessages.entryQuestionTooLong],
      [{ question: 'q', answer: 'a'.repeat(2001) }, agentMessages.entryAnswerTooLong],
      [{ question: 42, answer: 'a' }, agentMessages.entryQuestionRequired],
    ];
    for (const [body, message] of bad) {
      const res = await call(owner, 'POST', base, body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.body.message).toBe(message);
    }
    for (const body of [[], 'text', null, { ids: [] }, { ids: 'x' }]) {
      const res = await call(owner, 'POST', `/api/agents/${agent._id}/unanswered/dismiss`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    const noIds = await call(owner, 'POST', `/api/agents/${agent._id}/unanswered/answer`, { ids: [], question: 'q', answer: 'a' });
    expect(noIds.status).toBe(400);
    expect(noIds.body.message).toBe(agentMessages.unansweredIdsRequired);

    const deleted = await call(owner, 'DELETE', `${base}/${entry._id}`);
    expect(deleted.status).toBe(200);
    expect((await call<KnowledgeEntry[]>(owner, 'GET', base)).body.data).toEqual([]);
    expect((await call(owner, 'DELETE', `${base}/${entry._id}`)).status).toBe(404);
  });

  it('knowledge settings: PUT persists language and minRelevance (out of range → 400); a new agent of a Spanish owner is Spanish', async () => {
    const user = await agentsUser();
    const agent = await createAgent(user, 'Sonia');
    expect(agent.language).toBe('en');

    const put = await call<Agent>(user, 'PUT', `/api/agents/${agent._id}`, { language: 'es', minRelevance: 0.5 });
    expect(put.status).toBe(200);
    expect((await call<Agent>(user, 'GET', `/api/agents/${agent._id}`)).body.data).toMatchObject({ language: 'es', minRelevance: 0.5 });
    for (const [body, message] of [
      [{ minRelevance: 1.5 }, agentMessages.minRelevanceRange],
      [{ minRelevance: '0.5' }, agentMessages.minRelevanceRange],
      [{ language: 'fr' }, agentMessages.languageInvalid],
    ] as const) {
      const res = await call(user, 'PUT', `/api/agents/${agent._id}`, body);
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(message);
    }

    const settings = await call(user, 'POST', '/api/settings', { name: 'Lucía', language: 'es' });
    expect(settings.status).toBe(200);
    expect((await createAgent(user, 'Lola')).language).toBe('es');
  });

  it('WhatsApp: a question the knowledge cannot answer gets the refusal with the offer of a person, and is recorded with its conversation', async () => {
    const user = await agentsUser();
    await connectChatGpt(user);
    const agent = await spanishAgent(user);
    await uploadAndWait(user, agent._id, { name: 'horario.txt', type: 'text/plain', bytes: 'Horario\nLunes a viernes de 9:00 a 20:00.\nSábados de 10:00 a 14:00.' });
    const wa = await connectWhatsApp(user.token);
    const customer = waCustomer('Ana Pérez');

    const body = metaDelivery(wa, { messages: [textMessage(customer, '¿Aceptáis mascotas en la consulta?')] });
    const res = await postWebhook(wa.integrationId, body, signMetaBody(body, wa.appSecret));
    expect(res.status).toBe(200);

    const sent = await until(async () => (await graphSends(wa.phoneId)).find((s) => s.status === 200), 'the agent’s WhatsApp reply');
    expect(sent.text).toBe(`${REFUSAL_ES} ${OFFER_ES}`);
    const [group] = await until(async () => {
      const groups = await unanswered(user, agent._id);
      return groups.length > 0 ? groups : undefined;
    }, 'the unanswered question');
    expect(group!.questions).toEqual([
      expect.objectContaining({ question: '¿Aceptáis mascotas en la consulta?', channel: 'whatsapp', conversationId: expect.any(String) as string }),
    ]);
  });
});

describe('the stores behind it (DynamoDB Local)', () => {
  it(`an agent holds at most 200 entries: the count is checked in the same transaction as the write; a deleted entry frees its place`, async () => {
    const repo = new DynamoAgentRepository(db(), tableName());
    const userId = `test-${randomUUID()}`;
    const agent = newAgentRecord(newId(), 'Limits', new Date().toISOString(), 'es');
    await repo.createAgent(userId, agent);
    const entry = (id: string) => ({ _id: id, agentId: agent._id, question: '¿Hay parking?', answer: 'Sí.', createdAt: 'x', updatedAt: 'x' });
    const first = newId();
    expect(await repo.addEntry(userId, entry(first))).toBe('added');
    // As if 199 more had been added.
    await db().send(
      new UpdateCommand({ TableName: tableName(), Key: { pk: `USER#${userId}`, sk: `AGENT#${agent._id}` }, UpdateExpression: 'SET entryCount = :n', ExpressionAttributeValues: { ':n': 200 } }),
    );

    expect(await repo.addEntry(userId, entry(newId()))).toBe('limit');
    expect(await repo.deleteEntry(userId, agent._id, first)).toBe(true);
    expect(await repo.deleteEntry(userId, agent._id, first)).toBe(false);
    expect(await repo.addEntry(userId, entry(newId()))).toBe('added');
    expect(await repo.addEntry(userId, { ...entry(newId()), agentId: newId() })).toBe('no_agent');
    expect((await repo.get(userId, agent._id))!.entries).toHaveLength(1);
  });

  it('unanswered questions: newest first, at most 500 kept (older ones deleted), removed by id, gone with the agent', async () => {
    const store = new DynamoUnansweredStore(db(), tableName());
    const userId = `test-${randomUUID()}`;
    const agentId = newId();
    const base = Date.parse('2026-05-01T10:00:00Z');
    const ids: string[] = [];
    for (let i = 0; i < 503; i++) ids.push(newId(base + i * 1000));
    // The newest through the store, the rest seeded in batches in the same layout (503 single puts are slow here).
    await store.add(userId, agentId, { _id: ids[502]!, question: 'pregunta 502', channel: 'chat', askedAt: new Date(base + 502_000).toISOString() });
    const items = ids.slice(0, 502).map((id, i) => ({
      pk: unansweredPk(userId, agentId),
      sk: unansweredSk(id),
      entity: 'unanswered',
      _id: id,
      question: `pregunta ${i}`,
      channel: 'chat',
      askedAt: new Date(base + i * 1000).toISOString(),
    }));
    for (let i = 0; i < items.length; i += 25) {
      await db().send(new BatchWriteCommand({ RequestItems: { [tableName()]: items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } })) } }));
    }

    const listed = await store.list(userId, agentId);

    expect(listed).toHaveLength(500);
    expect(listed[0]!.question).toBe('pregunta 502');
    expect(listed.at(-1)!.question).toBe('pregunta 3');
    // The three oldest were pruned: removing them finds nothing.
    expect(await store.remove(userId, agentId, ids.slice(0, 3))).toEqual([]);
    expect(await store.remove(userId, agentId, [ids[502]!, ids[502]!, 'not an id!'])).toEqual([ids[502]]);
    await store.deleteAgent(userId, agentId);
    expect(await store.list(userId, agentId)).toEqual([]);
  }, 120_000);
});

