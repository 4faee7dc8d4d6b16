/**
 * The Test Agent chat through the local gateway: the agent runtime with the user's ChatGPT
 * integration (the fake OpenAI, reached through the official SDK and the outbound guard), custom
 * tools calling the test web server (query/body, header), the outbound guard refusing private
 * addresses and redirects to them, the tool timeout (TOOL_TIMEOUT_MS = 2 s in the test stack),
 * knowledge from an uploaded document, escalation, model errors as clear messages, ownership,
 * validation and the answering-agent choice of /api/agents/chat.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Agent, AgentFile, ChatReply } from '../../src/contract/agents.js';
import { api, provided } from '../support/api.js';
import { agentsUser, type AgentsUser, call, connectChatGpt, createAgent, createTool, uploadMultipart } from '../support/agents-api.js';
import { webFixtures } from '../support/web-fixtures.js';

/** A fresh API key per test: the fake OpenAI scripts and records by key. */
const newKey = (prefix = 'sk-test') => `${prefix}-${randomUUID()}`;

async function agentWithDetails(user: AgentsUser, details: Record<string, unknown> = {}): Promise<Agent> {
  const agent = await createAgent(user, 'Sonia');
  const res = await call<Agent>(user, 'PUT', `/api/agents/${agent._id}`, {
    name: 'Sonia',
    description: 'Receptionist of the Sonrisa dental clinic',
    objective: 'Answer questions about orders and appointments',
    instructions: 'Always confirm the order number back',
    knowledgeBase: 'Opening hours: Monday to Friday 9:00-18:00',
    priority: 0,
    // New agents start disabled; with instructions this one can answer (issue 19).
    enabled: true,
    ...details,
  });
  if (res.status !== 200 || !res.body.data) throw new Error(`agent update failed: ${res.status} ${res.body.message}`);
  return res.body.data;
}

/** A connected user with a described agent: the usual starting point. */
async function ready(settings: Record<string, unknown> = {}) {
  const user = await agentsUser();
  const key = await connectChatGpt(user, newKey(), settings);
  const agent = await agentWithDetails(user);
  return { user, key, agent };
}

const chat = (user: AgentsUser, agentId: string | null, body: unknown) =>
  api<ChatReply>('POST', agentId === null ? '/api/agents/chat' : `/api/agents/${agentId}/chat`, { token: user.token, body });

interface OpenAiRequest {
  path: string;
  status: number;
  body: {
    messages: { role: string; content: string | null; tool_calls?: unknown[]; tool_call_id?: string }[];
    tools?: { type: string; function: { name: string; description: string; parameters: Record<string, unknown> } }[];
    model: string;
  };
}
async function completions(key: string): Promise<OpenAiRequest[]> {
  const res = await fetch(`${provided('openaiUrl')}/_test/requests?key=${encodeURIComponent(key)}&path=/v1/chat/completions`);
  return ((await res.json()) as { requests: OpenAiRequest[] }).requests.filter((r) => r.path.endsWith('/chat/completions'));
}
async function script(key: string, responses: unknown[]): Promise<void> {
  const res = await fetch(`${provided('openaiUrl')}/_test/script`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ key, responses }),
  });
  if (!res.ok) throw new Error(`script failed: ${res.status}`);
}
const toolCall = (name: string, args: unknown) => ({
  id: `call_${randomUUID().slice(0, 8)}`,
  type: 'function',
  function: { name, arguments: JSON.stringify(args) },
});

describe('POST /api/agents/{id}/chat: custom tools', () => {
  it('a GET tool: the endpoint gets the parameters as a query string and the header; the result goes back to the model; data shows what was used', async () => {
    // Arrange
    const { user, key, agent } = await ready();
    const site = webFixtures();
    const endpoint = await site.route({
      path: '/orders',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ order: 'A-17', status: 'shipped' }),
    });
    await createTool(user, agent._id, {
      name: 'check_order_status',
      description: 'Looks up the status of an order',
      endpoint,
      method: 'GET',
      headerKey: 'X-Api-Key',
      headerValue: 'tool-secret-123',
      properties: { order_id: { type: 'string', description: 'The order number' } },
      required: ['order_id'],
    });

    // Act
    const res = await chat(user, agent._id, { message: 'check_order_status order_id=A-17', messages: [] });

    // Assert: the endpoint saw the call
    expect(res.status).toBe(200);
    const seen = await site.requests('/orders');
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ method: 'GET', query: { order_id: 'A-17' }, body: '' });
    expect(seen[0]!.headers['x-api-key']).toBe('tool-secret-123');
    // ...the reply and what the agent used
    const data = res.body.data!;
    expect(data.agent).toEqual({ _id: agent._id, name: 'Sonia' });
    expect(data.toolCalls).toEqual([
      expect.objectContaining({
        name: 'check_order_status',
        arguments: { order_id: 'A-17' },
        ok: true,
        status: 200,
        result: 'HTTP 200\n{"order":"A-17","status":"shipped"}',
      }),
    ]);
    expect(data.reply).toContain('Tool check_order_status returned: HTTP 200');
    expect(data.reply).toContain('shipped');
    expect(data.escalation).toBeNull();
    expect(Date.parse(data.timestamp)).not.toBeNaN();
    // ...and the model got the prompt, the tools as functions, then the tool result.
    const [first, second] = await completions(key);
    expect(first!.body.model).toBe('gpt-4o');
    const system = first!.body.messages[0]!;
    expect(system.role).toBe('system');
    for (const part of ['You are Sonia', 'Receptionist of the Sonrisa dental clinic', 'Answer questions about orders', 'Always confirm the order number back', 'Opening hours']) {
      expect(system.content).toContain(part);
    }
    expect(first!.body.tools!.map((t) => t.function.name)).toEqual(['check_order_status', 'search_knowledge', 'escalate_to_human']);
    expect(first!.body.tools![0]!.function.parameters).toEqual({
      type: 'object',
      properties: { order_id: { type: 'string', description: 'The order number' } },
      required: ['order_id'],
      additionalProperties: false,
    });
    expect(second!.body.messages.at(-1)).toMatchObject({ role: 'tool', content: 'HTTP 200\n{"order":"A-17","status":"shipped"}' });
  });

  it('a POST tool: the parameters go as a JSON body', async () => {
    const { user, agent } = await ready();
    const site = webFixtures();
    const endpoint = await site.route({ path: '/book', status: 201, headers: { 'content-type': 'application/json' }, body: '{"booked":true}' });
    await createTool(user, agent._id, {
      name: 'book_table',
      description: 'Books a table',
      endpoint,
      method: 'POST',
      properties: {
        date: { type: 'string', description: 'Day' },
        guests: { type: 'number', description: 'People' },
      },
      required: ['date', 'guests'],
    });

    const res = await chat(user, agent._id, { message: 'book_table date=2026-05-01 guests=4', messages: [] });

    expect(res.status).toBe(200);
    const [seen] = await site.requests('/book');
    expect(seen!.method).toBe('POST');
    expect(seen!.headers['content-type']).toBe('application/json');
    expect(JSON.parse(seen!.body)).toEqual({ date: '2026-05-01', guests: 4 });
    expect(res.body.data!.toolCalls[0]).toMatchObject({ name: 'book_table', ok: true, status: 201 });
  });

  it.each([
    ['http://10.0.0.5/orders', 'The tool could not be called: the address points to a private or local network and cannot be reached'],
    ['http://169.254.169.254/latest/meta-data/', 'The tool could not be called: the address points to a private or local network and cannot be reached'],
  ])('an endpoint on a private address (%s) is refused and the reply still comes', async (endpoint, text) => {
    const { user, agent } = await ready();
    await createTool(user, agent._id, { name: 'check_order', endpoint, properties: { order_id: { type: 'string', description: 'Order' } }, required: ['order_id'] });

    const res = await chat(user, agent._id, { message: 'check_order order_id=A-1', messages: [] });

    expect(res.status).toBe(200);
    expect(res.body.data!.toolCalls).toEqual([expect.objectContaining({ name: 'check_order', ok: false, result: text })]);
    expect(res.body.data!.toolCalls[0]!.status).toBeUndefined();
    expect(res.body.data!.reply).toContain(`Tool check_order returned: ${text}`);
  });

  it('a redirect to a private address is refused', async () => {
    const { user, agent } = await ready();
    const site = webFixtures();
    const endpoint = await site.route({ path: '/moved', redirectTo: 'http://10.0.0.5/internal' });
    await createTool(user, agent._id, { name: 'check_order', endpoint, properties: { order_id: { type: 'string', description: 'Order' } }, required: ['order_id'] });

    const res = await chat(user, agent._id, { message: 'check_order order_id=A-1', messages: [] });

    expect(res.status).toBe(200);
    expect(await site.requests('/moved')).toHaveLength(1);
    expect(res.body.data!.toolCalls[0]).toMatchObject({ ok: false, result: 'The tool could not be called: the address points to a private or local network and cannot be reached' });
  });

  it('a tool that does not answer in time: the model is told, the reply still comes', async () => {
    const { user, agent } = await ready();
    const site = webFixtures();
    const endpoint = await site.route({ path: '/slow', delayMs: 8_000, body: 'too late' });
    await createTool(user, agent._id, { name: 'check_order', endpoint, properties: { order_id: { type: 'string', description: 'Order' } }, required: ['order_id'] });
    const started = Date.now();

    const res = await chat(user, agent._id, { message: 'check_order order_id=A-1', messages: [] });

    expect(res.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(6_000);
    expect(res.body.data!.toolCalls[0]).toMatchObject({ ok: false, result: 'The tool did not answer within 2 seconds' });
    expect(res.body.data!.reply).toContain('The tool did not answer within 2 seconds');
  });

  it('missing required parameters: the endpoint is not called and the model is told which', async () => {
    const { user, key, agent } = await ready();
    const site = webFixtures();
    const endpoint = await site.route({ path: '/orders', body: 'x' });
    await createTool(user, agent._id, { name: 'check_order', endpoint, properties: { order_id: { type: 'string', description: 'Order' } }, required: ['order_id'] });
    await script(key, [{ content: null, tool_calls: [toolCall('check_order', {})] }, { content: 'What is your order number?' }]);

    const res = await chat(user, agent._id, { message: 'Where is my order?', messages: [] });

    expect(res.body.data!.reply).toBe('What is your order number?');
    expect(res.body.data!.toolCalls[0]).toMatchObject({ ok: false, result: expect.stringContaining('Missing required parameter: order_id') as string });
    expect(await site.requests('/orders')).toHaveLength(0);
  });
});

describe('POST /api/agents/{id}/chat: conversation, knowledge, escalation', () => {
  it('sends the integration system prompt and settings, and the history before the message', async () => {
    const { user, key, agent } = await ready({ systemPrompt: 'Always answer in English.', maxTokens: 321, temperature: 0.2 });
    const history = [
      { role: 'user', content: 'Hello' },
      { role: 'assistant', content: 'Hi! How can I help?' },
    ];

    const res = await chat(user, agent._id, { message: '  Do you open on Saturday?  ', messages: history });

    expect(res.status).toBe(200);
    expect(res.body.data!.reply).toBe('Echo: Do you open on Saturday?');
    const [req] = await completions(key);
    expect(req!.body.messages[0]!.content).toMatch(/^Always answer in English\./);
    expect(req!.body).toMatchObject({ max_tokens: 321, temperature: 0.2 });
    expect(req!.body.messages.slice(1).map((m) => [m.role, m.content])).toEqual([
      ['user', 'Hello'],
      ['assistant', 'Hi! How can I help?'],
      ['user', 'Do you open on Saturday?'],
    ]);
  });

  it('answers from an uploaded document and lists it as a source', async () => {
    const { user, agent } = await ready();
    const upload = await uploadMultipart(user, agent._id, [
      { name: 'policies.txt', type: 'text/plain', bytes: 'Refunds are accepted within 30 days of purchase. Shipping is free over 50 EUR.' },
    ]);
    expect(upload.status).toBe(201);
    let files: AgentFile[] = [];
    for (let i = 0; i < 100; i++) {
      files = (await call<AgentFile[]>(user, 'GET', `/api/agents/${agent._id}/files`)).body.data ?? [];
      if (files[0]?.status !== 'pending' && files[0]?.status !== 'uploading') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(files[0]?.status).toBe('completed');
    // At the default threshold: 'policy' is a word the one-line document lacks, but it holds the
    // question's other key word ('refunds'), which is related enough to pass the gate (issue 28; it
    // used to be a false refusal). Refusal is tested in knowledge-teach.

    const res = await chat(user, agent._id, { message: 'What is your refund policy?', messages: [] });

    expect(res.status).toBe(200);
    expect(res.body.data!.reply).toBe('From policies.txt: Refunds are accepted within 30 days of purchase.');
    expect(res.body.data!.sources).toEqual([
      expect.objectContaining({ name: 'policies.txt', kind: 'file', sourceId: files[0]!._id, excerpt: expect.stringContaining('Refunds are accepted') as string }),
    ]);
  });

  it('escalate_to_human: the reason is returned with a hand-off reply', async () => {
    const { user, key, agent } = await ready();
    await script(key, [
      { content: null, tool_calls: [toolCall('escalate_to_human', { reason: 'Customer asks for a refund manager' })] },
      { content: 'I am passing you to a colleague who will call you back today.' },
    ]);

    const res = await chat(user, agent._id, { message: 'I want to speak to a manager', messages: [] });

    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      reply: 'I am passing you to a colleague who will call you back today.',
      escalation: { reason: 'Customer asks for a refund manager' },
      toolCalls: [{ name: 'escalate_to_human', ok: true }],
    });
    const requests = await completions(key);
    expect(requests).toHaveLength(2);
    expect(requests[1]!.body.tools).toBeUndefined();
  });

  it('invalid tool-call JSON from the model becomes an error text for it, not a failure', async () => {
    const { user, key, agent } = await ready();
    await script(key, [
      { content: null, tool_calls: [{ id: 'call_bad', type: 'function', function: { name: 'search_knowledge', arguments: '{"query": "refu' } }] },
      { content: 'Could you say that again?' },
    ]);

    const res = await chat(user, agent._id, { message: 'refunds?', messages: [] });

    expect(res.status).toBe(200);
    expect(res.body.data!.reply).toBe('Could you say that again?');
    expect(res.body.data!.toolCalls[0]).toMatchObject({ name: 'search_knowledge', ok: false });
    const second = (await completions(key))[1]!;
    expect(second.body.messages.at(-1)).toMatchObject({ role: 'tool', tool_call_id: 'call_bad', content: expect.stringMatching(/^Invalid arguments/) as string });
  });
});

describe('POST /api/agents/{id}/chat: errors', () => {
  it.each(['', '   \n\t '])('message %j → 400 Message is required', async (message) => {
    const { user, agent } = await ready();
    const res = await chat(user, agent._id, { message, messages: [] });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, message: 'Message is required' });
  });

  it('another user’s agent or an unknown id → 404 Agent not found', async () => {
    const owner = await ready();
    const other = await ready();

    const foreign = await chat(other.user, owner.agent._id, { message: 'hi', messages: [] });
    const unknown = await chat(other.user, 'does-not-exist', { message: 'hi', messages: [] });

    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ success: false, message: 'Agent not found' });
    expect(unknown.status).toBe(404);
    expect(await completions(owner.key)).toHaveLength(0);
    expect(await completions(other.key)).toHaveLength(0);
  });

  it('without the ChatGPT integration → 400 with what to do', async () => {
    const user = await agentsUser();
    const agent = await agentWithDetails(user);
    const res = await chat(user, agent._id, { message: 'hi', messages: [] });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Connect the ChatGPT integration first');
  });

  it.each([
    ['sk-invalid', 400, 'OpenAI rejected the API key. Check the key in Integrations.'],
    ['sk-ratelimit', 429, 'OpenAI is rate limiting this API key. Please try again in a moment.'],
  ])('a key the provider refuses (%s) → %i with a clear message, no internals', async (prefix, status, message) => {
    const user = await agentsUser();
    await connectChatGpt(user, newKey(prefix));
    const agent = await agentWithDetails(user);

    const res = await chat(user, agent._id, { message: 'hi', messages: [] });

    expect(res.status).toBe(status);
    expect(res.body).toEqual({ success: false, message });
  });

  it('a request the provider refuses is a 502 with a clear message, not its text', async () => {
    const { user, key, agent } = await ready();
    // A 400 (a 5xx would be retried by the SDK with back-off, slowing the suite for the same mapping).
    await script(key, [{ error: { status: 400, message: "Invalid parameter: messages[3] at shard 7", type: 'invalid_request_error' } }]);

    const res = await chat(user, agent._id, { message: 'hi', messages: [] });

    expect(res.status).toBe(502);
    expect(res.body).toEqual({ success: false, message: 'The AI model could not be reached. Please try again later.' });
  });
});

describe('POST /api/agents/chat: the answering agent', () => {
  it('is the highest-priority enabled agent; ties go to the oldest', async () => {
    const user = await agentsUser();
    await connectChatGpt(user);
    const low = await agentWithDetails(user, { name: 'Low', priority: 2 });
    const olderTop = await agentWithDetails(user, { name: 'OlderTop', priority: 7 });
    await new Promise((r) => setTimeout(r, 5));
    const newerTop = await agentWithDetails(user, { name: 'NewerTop', priority: 7 });
    const disabled = await agentWithDetails(user, { name: 'Disabled', priority: 10 });
    expect((await call(user, 'PUT', `/api/agents/${disabled._id}`, { enabled: false })).status).toBe(200);

    const res = await chat(user, null, { message: 'Hello', messages: [] });

    expect(res.status).toBe(200);
    expect(res.body.data!.agent).toEqual({ _id: olderTop._id, name: 'OlderTop' });
    expect([low._id, newerTop._id]).not.toContain(res.body.data!.agent._id);
  });

  it('with no enabled agent → 400', async () => {
    const user = await agentsUser();
    await connectChatGpt(user);
    const agent = await agentWithDetails(user);
    await call(user, 'PUT', `/api/agents/${agent._id}`, { enabled: false });

    const res = await chat(user, null, { message: 'Hello', messages: [] });

    expect(res.status).toBe(400);
    expect(res.body.message).toBe('No enabled agent to answer. Enable an agent first.');
  });
});
