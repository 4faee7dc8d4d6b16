/**
 * Issue 28 through the local gateway: an agent that holds one business's files only — the usual
 * set-up, a shoe shop's five files (PDF, DOCX, DOC, two TXT) from the graded set — answers the
 * questions its files answer, with sources, instead of refusing them (the relevance gate used the
 * index's idf, which made an agent of one business score its own words low). What its files do
 * not answer it still does not know: the passages pass the gate, the model (the fake OpenAI,
 * judging the excerpts) says it does not know, and the question is recorded as unanswered.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { AGENT_FILE_TYPES, type Agent, type AgentFile, type ChatReply, type UnansweredGroup } from '../../src/contract/agents.js';
import { UNANSWERED_MARKER } from '../../src/domain/agents/runtime/prompt.js';
import { EVAL_AGENTS, evalFiles } from '../fixtures/knowledge-eval/content.js';
import { api, until } from '../support/api.js';
import { agentsUser, type AgentsUser, call, connectChatGpt, createEnabledAgent, uploadMultipart } from '../support/agents-api.js';

const REFUSAL_ES = 'Lo siento, no tengo esa información.';
const docs = path.join(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/knowledge-eval/docs');
const SHOP = EVAL_AGENTS.find((a) => a.id === 'shoes')!;
const WAREHOUSE_FILE = 'ribera-tienda-y-almacen.docx';

let user: AgentsUser;
let agent: Agent;

beforeAll(async () => {
  user = await agentsUser();
  await connectChatGpt(user);
  agent = await createEnabledAgent(user, 'Rosa');
  const spanish = await call<Agent>(user, 'PUT', `/api/agents/${agent._id}`, { language: 'es' });
  expect(spanish.status).toBe(200);
  // The shop's files and nothing else.
  const files = evalFiles(SHOP).map(({ file, format }) => ({ name: file, type: AGENT_FILE_TYPES[format], bytes: new Uint8Array(readFileSync(path.join(docs, file))) }));
  const upload = await uploadMultipart(user, agent._id, files);
  expect(upload.status, upload.body.message).toBe(201);
  await until(async () => {
    const stored = (await call<AgentFile[]>(user, 'GET', `/api/agents/${agent._id}/files`)).body.data ?? [];
    const failed = stored.find((f) => f.status === 'failed');
    if (failed) throw new Error(`${failed.originalName} failed: ${failed.error}`);
    return stored.length === files.length && stored.every((f) => f.status === 'completed');
  }, 'the shop’s files ingested', 60_000);
}, 90_000);

const chat = async (message: string): Promise<ChatReply> => {
  const res = await api<ChatReply>('POST', `/api/agents/${agent._id}/chat`, { token: user.token, body: { message, messages: [] } });
  if (res.status !== 200 || !res.body.data) throw new Error(`chat failed: ${res.status} ${res.body.message}`);
  return res.body.data;
};

const unanswered = async (): Promise<UnansweredGroup[]> => (await call<{ groups: UnansweredGroup[] }>(user, 'GET', `/api/agents/${agent._id}/unanswered`)).body.data!.groups;

describe('a one-business agent (issue 28)', () => {
  it('answers "¿Dónde está vuestro almacén?"-style questions from its own files, with the warehouse passage as a source, and records none of them', async () => {
    for (const question of [
      '¿Dónde está vuestro almacén?',
      'compré online, ¿puedo pasar a recogerlo al almacén? ¿a qué hora?',
      '¿Puedo probarme zapatos en el almacén?',
    ]) {
      const reply = await chat(question);

      expect(reply.reply, question).not.toContain(REFUSAL_ES);
      expect(reply.reply, question).not.toContain(UNANSWERED_MARKER);
      const warehouse = reply.sources.find((s) => s.name === WAREHOUSE_FILE && s.excerpt.includes('almacén'));
      expect(warehouse, `${question}: ${JSON.stringify(reply.sources.map((s) => [s.name, s.score]))}`).toBeDefined();
      expect(warehouse!.section).toContain('El almacén');
    }
    expect((await chat('¿Dónde está vuestro almacén?')).sources.some((s) => s.excerpt.includes('calle Bari 14'))).toBe(true);
    expect(await unanswered()).toEqual([]);
  });

  it('what its files do not say, the model says it does not know (no marker shown), and the question is recorded although passages passed the gate', async () => {
    const reply = await chat('¿Hacéis descuento a estudiantes?');

    expect(reply.reply).toBe(REFUSAL_ES);
    expect(reply.sources.length).toBeGreaterThan(0);
    const groups = await until(async () => {
      const found = await unanswered();
      return found.length > 0 ? found : undefined;
    }, 'the unanswered question');
    expect(groups.map((g) => g.question)).toEqual(['¿Hacéis descuento a estudiantes?']);
  });
});
