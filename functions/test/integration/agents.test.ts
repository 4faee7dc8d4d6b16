/**
 * Agents API through the local gateway against DynamoDB Local: CRUD with the SPEC §5 rules and
 * messages, enable/disable and the list toggle, custom tools (every validation message, unique
 * names, the header value sealed at rest and masked), and ownership (another user's ids → 404).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Agent, AgentTool } from '../../src/contract/agents.js';
import { getItem } from '../support/api.js';
import { agentItems, agentsUser, call, createAgent, createTool, validTool, type AgentsUser } from '../support/agents-api.js';

let owner: AgentsUser;
let stranger: AgentsUser;

beforeAll(async () => {
  [owner, stranger] = await Promise.all([agentsUser(), agentsUser()]);
});

describe('agents CRUD', () => {
  it('creates an agent from its name alone with the defaults, and stores it under the user', async () => {
    const res = await call<Agent>(owner, 'POST', '/api/agents', { name: '  Front desk  ' });

    expect(res.status).toBe(201);
    expect(res.body.message).toBe('Agent created successfully');
    const agent = res.body.data!;
    expect(agent).toMatchObject({
      name: 'Front desk',
      description: '',
      objective: '',
      instructions: '',
      knowledgeBase: '',
      priority: 0,
      // Disabled until it has instructions (issue 19).
      enabled: false,
      files: [],
      urls: [],
      tools: [],
    });
    expect(agent._id).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(agent.createdAt).toBe(agent.updatedAt);
    const item = await getItem(`USER#${owner.userId}`, `AGENT#${agent._id}`);
    expect(item).toMatchObject({ entity: 'agent', name: 'Front desk', knowledgeVersion: 0 });
  });

  it.each([
    [{}, 'Name is required'],
    [{ name: '   ' }, 'Name is required'],
    [{ name: 42 }, 'Name is required'],
    [{ name: 'x'.repeat(21) }, 'Name must be 20 characters or less'],
  ])('POST %j → 400 %s (nothing stored)', async (body, message) => {
    const user = await agentsUser();

    const res = await call(user, 'POST', '/api/agents', body);

    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, message });
    expect((await call<Agent[]>(user, 'GET', '/api/agents')).body.data).toEqual([]);
  });

  it('lists the user\'s agents oldest first, each with its files, URLs and tools', async () => {
    const user = await agentsUser();
    const first = await createAgent(user, 'First');
    const second = await createAgent(user, 'Second');
    const third = await createAgent(user, 'Third');
    const tool = await createTool(user, second._id);

    const res = await call<Agent[]>(user, 'GET', '/api/agents');

    expect(res.status).toBe(200);
    expect(res.body.data!.map((a) => a._id)).toEqual([first._id, second._id, third._id]);
    expect(res.body.data![1]!.tools).toEqual([tool]);
    expect(res.body.data![0]!.tools).toEqual([]);
    // Nobody else's agents.
    expect((await call<Agent[]>(stranger, 'GET', '/api/agents')).body.data!.some((a) => a._id === first._id)).toBe(false);
  });

  it('updates the details form (trimmed) and returns the agent', async () => {
    const agent = await createAgent(owner, 'Draft');

    const res = await call<Agent>(owner, 'PUT', `/api/agents/${agent._id}`, {
      name: ' Sales ',
      description: ' Answers sales questions ',
      objective: 'Book demos',
      instructions: 'Be brief',
      knowledgeBase: 'Prices start at 10 EUR',
      priority: '7',
    });

    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Agent updated successfully');
    expect(res.body.data).toMatchObject({
      _id: agent._id,
      name: 'Sales',
      description: 'Answers sales questions',
      objective: 'Book demos',
      instructions: 'Be brief',
      knowledgeBase: 'Prices start at 10 EUR',
      priority: 7,
      enabled: false,
      createdAt: agent.createdAt,
    });
    expect(res.body.data!.updatedAt >= agent.updatedAt).toBe(true);
    expect((await call<Agent>(owner, 'GET', `/api/agents/${agent._id}`)).body.data).toEqual(res.body.data);
  });

  it.each([
    [{ name: '' }, 'Name is required'],
    [{ name: 'x'.repeat(21) }, 'Name must be 20 characters or less'],
    [{ description: '  ' }, 'Description is required'],
    [{ description: 'x'.repeat(501) }, 'Description must be 500 characters or less'],
    [{ objective: '' }, 'Objective is required'],
    [{ objective: 'x'.repeat(601) }, 'Objective must be 600 characters or less'],
    [{ instructions: 'x'.repeat(601) }, 'Instructions must be 600 characters or less'],
    [{ knowledgeBase: 'x'.repeat(3001) }, 'Knowledge base must be 3000 characters or less'],
    [{ priority: 11 }, 'Priority must be between 0 and 10'],
    [{ priority: -1 }, 'Priority must be between 0 and 10'],
    [{ priority: 1.5 }, 'Priority must be between 0 and 10'],
    [{ priority: 'high' }, 'Priority must be between 0 and 10'],
    [{ enabled: 'yes' }, 'Enabled must be true or false'],
  ])('PUT %j → 400 %s (nothing changed)', async (body, message) => {
    const agent = await createAgent(owner, 'Keep');

    const res = await call(owner, 'PUT', `/api/agents/${agent._id}`, body);

    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, message });
    expect((await call<Agent>(owner, 'GET', `/api/agents/${agent._id}`)).body.data).toEqual(agent);
  });

  it('accepts the limits exactly', async () => {
    const agent = await createAgent(owner);

    const res = await call<Agent>(owner, 'PUT', `/api/agents/${agent._id}`, {
      name: 'x'.repeat(20),
      description: 'd'.repeat(500),
      objective: 'o'.repeat(600),
      instructions: 'i'.repeat(600),
      knowledgeBase: 'k'.repeat(3000),
      priority: 10,
    });

    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ name: 'x'.repeat(20), priority: 10 });
  });

  it('toggles from the list with {enabled}, and enables/disables with their messages', async () => {
    const agent = await createAgent(owner);
    await call(owner, 'PUT', `/api/agents/${agent._id}`, { instructions: 'Greet in Spanish' });

    const toggledOn = await call<Agent>(owner, 'PUT', `/api/agents/${agent._id}`, { enabled: true });
    expect(toggledOn.status).toBe(200);
    expect(toggledOn.body.data).toMatchObject({ enabled: true, name: agent.name });
    const toggled = await call<Agent>(owner, 'PUT', `/api/agents/${agent._id}`, { enabled: false });
    expect(toggled.status).toBe(200);
    expect(toggled.body.data).toMatchObject({ enabled: false, name: agent.name });

    const enabled = await call<Agent>(owner, 'POST', `/api/agents/${agent._id}/enable`);
    expect(enabled.status).toBe(200);
    expect(enabled.body.message).toBe('Agent activated successfully');
    expect(enabled.body.data).toMatchObject({ _id: agent._id, enabled: true });

    const disabled = await call<Agent>(owner, 'POST', `/api/agents/${agent._id}/disable`);
    expect(disabled.status).toBe(200);
    expect(disabled.body.message).toBe('Agent deactivated successfully');
    expect(disabled.body.data).toMatchObject({ _id: agent._id, enabled: false });
    expect((await getItem(`USER#${owner.userId}`, `AGENT#${agent._id}`))?.enabled).toBe(false);
  });

  it.each([
    ['POST', '/enable', undefined],
    ['PUT', '', { enabled: true }],
    ['PUT', '', { enabled: true, instructions: '   ' }],
  ])('%s /api/agents/{id}%s %j without instructions → 400 with the reason (still disabled)', async (method, suffix, body) => {
    const agent = await createAgent(owner, 'Nueva');

    const res = await call(owner, method, `/api/agents/${agent._id}${suffix}`, body);

    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, message: 'Add instructions before enabling this agent' });
    expect((await call<Agent>(owner, 'GET', `/api/agents/${agent._id}`)).body.data).toEqual(agent);
  });

  it('enables an agent once its instructions are saved, or in the same request', async () => {
    const later = await createAgent(owner, 'Later');
    const together = await createAgent(owner, 'Together');

    await call(owner, 'PUT', `/api/agents/${later._id}`, { instructions: 'Responde en español' });
    const enabled = await call<Agent>(owner, 'POST', `/api/agents/${later._id}/enable`);
    const both = await call<Agent>(owner, 'PUT', `/api/agents/${together._id}`, { instructions: 'Be brief', enabled: true });

    expect([enabled.status, enabled.body.data?.enabled]).toEqual([200, true]);
    expect(both.body.data).toMatchObject({ instructions: 'Be brief', enabled: true });
    expect((await getItem(`USER#${owner.userId}`, `AGENT#${later._id}`))?.enabled).toBe(true);
  });

  it('refuses to empty an enabled agent\'s instructions, and allows it together with disabling', async () => {
    const agent = await createAgent(owner, 'Live');
    await call(owner, 'PUT', `/api/agents/${agent._id}`, { instructions: 'Be brief', enabled: true });

    const refused = await call(owner, 'PUT', `/api/agents/${agent._id}`, { instructions: '' });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('Disable this agent before removing its instructions');
    expect((await call<Agent>(owner, 'GET', `/api/agents/${agent._id}`)).body.data).toMatchObject({ instructions: 'Be brief', enabled: true });

    const both = await call<Agent>(owner, 'PUT', `/api/agents/${agent._id}`, { instructions: '', enabled: false });
    expect(both.body.data).toMatchObject({ instructions: '', enabled: false });
  });

  it('deletes an agent with its tools', async () => {
    const agent = await createAgent(owner);
    await createTool(owner, agent._id);

    const res = await call(owner, 'DELETE', `/api/agents/${agent._id}`);

    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Agent deleted successfully');
    expect(await agentItems(owner.userId, agent._id)).toEqual([]);
    expect((await call(owner, 'GET', `/api/agents/${agent._id}`)).status).toBe(404);
    expect((await call(owner, 'DELETE', `/api/agents/${agent._id}`)).status).toBe(404);
  });
});

describe('ownership: another user\'s ids answer 404', () => {
  let agent: Agent;
  let tool: AgentTool;

  beforeAll(async () => {
    agent = await createAgent(owner, 'Private');
    tool = await createTool(owner, agent._id);
  });

  it.each([
    ['GET', ''],
    ['PUT', ''],
    ['DELETE', ''],
    ['POST', '/enable'],
    ['POST', '/disable'],
    ['GET', '/tools'],
    ['POST', '/tools'],
    ['GET', '/files'],
    ['GET', '/urls'],
    ['POST', '/urls'],
    ['POST', '/files/uploads'],
  ])('%s /api/agents/{theirs}%s → 404 Agent not found', async (method, suffix) => {
    const body =
      suffix === '/tools' ? validTool() : suffix === '/urls' ? { urls: 'https://example.com' } : suffix === '/files/uploads' ? { files: [{ name: 'a.txt', size: 1, type: 'text/plain' }] } : { name: 'Mine' };

    const res = await call(stranger, method, `/api/agents/${agent._id}${suffix}`, method === 'GET' || method === 'DELETE' ? undefined : body);

    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ success: false, message: 'Agent not found' });
  });

  it('refuses another user\'s tool, and leaves it untouched', async () => {
    const update = await call(stranger, 'PUT', `/api/agents/${agent._id}/tools/${tool._id}`, validTool({ name: 'stolen' }));
    const remove = await call(stranger, 'DELETE', `/api/agents/${agent._id}/tools/${tool._id}`);

    expect([update.status, update.body.message]).toEqual([404, 'Agent not found']);
    expect([remove.status, remove.body.message]).toEqual([404, 'Agent not found']);
    const mine = await call<AgentTool[]>(owner, 'GET', `/api/agents/${agent._id}/tools`);
    expect(mine.body.data).toEqual([tool]);
    expect((await call<Agent>(owner, 'GET', `/api/agents/${agent._id}`)).body.data).toMatchObject({ name: 'Private', enabled: false });
  });

  it('answers 404 for ids that do not exist or cannot be ids', async () => {
    expect((await call(owner, 'GET', '/api/agents/01ARZ3NDEKTSV4RRFFQ69G5FAV')).body.message).toBe('Agent not found');
    expect((await call(owner, 'GET', '/api/agents/not-an-id')).status).toBe(404);
    const missingTool = await call(owner, 'DELETE', `/api/agents/${agent._id}/tools/01ARZ3NDEKTSV4RRFFQ69G5FAV`);
    expect([missingTool.status, missingTool.body.message]).toEqual([404, 'Tool not found']);
    const missingToolUpdate = await call(owner, 'PUT', `/api/agents/${agent._id}/tools/01ARZ3NDEKTSV4RRFFQ69G5FAV`, validTool({ name: 'other' }));
    expect([missingToolUpdate.status, missingToolUpdate.body.message]).toEqual([404, 'Tool not found']);
  });

  it('needs a token', async () => {
    expect((await call({ token: '', userId: '' }, 'GET', '/api/agents')).status).toBe(401);
  });
});

describe('custom tools', () => {
  let agent: Agent;

  beforeAll(async () => {
    agent = await createAgent(owner, 'Tools');
  });

  it.each([
    [{ name: undefined }, 'Tool name is required'],
    [{ name: '  ' }, 'Tool name is required'],
    [{ name: 'Check Order' }, 'Tool name must start with a lowercase letter and use only lowercase letters, numbers and underscores'],
    [{ name: '1_tool' }, 'Tool name must start with a lowercase letter and use only lowercase letters, numbers and underscores'],
    [{ name: 'a'.repeat(65) }, 'Tool name must be 64 characters or less'],
    [{ name: 'search_knowledge' }, 'This tool name is reserved'],
    [{ name: 'escalate_to_human' }, 'This tool name is reserved'],
    [{ description: undefined }, 'Description is required'],
    [{ description: ' ' }, 'Description is required'],
    [{ description: 'x'.repeat(1001) }, 'Description must be 1000 characters or less'],
    [{ type: 'function' }, 'Tool type must be http_request'],
    [{ endpoint: undefined }, 'Endpoint is required'],
    [{ endpoint: '' }, 'Endpoint is required'],
    [{ endpoint: 'orders' }, 'Endpoint must be a valid http(s) URL'],
    [{ endpoint: 'ftp://files.example.com/x' }, 'Endpoint must be a valid http(s) URL'],
    [{ method: 'FETCH' }, 'Method must be one of GET, POST, PUT, DELETE, PATCH'],
    [{ headerKey: 'X Api Key' }, 'Header key may contain only letters, numbers and dashes'],
    [{ headerKey: '', headerValue: 'secret' }, 'Header value needs a header key'],
    [{ properties: { orderId: { type: 'date', description: 'When' } } }, 'Parameter type must be one of string, number, boolean, object, array'],
    [{ properties: { orderId: { description: 'When' } } }, 'Parameter type must be one of string, number, boolean, object, array'],
    [{ properties: { orderId: { type: 'string', description: ' ' } } }, 'Parameter description is required'],
    [{ properties: { orderId: { type: 'string' } } }, 'Parameter description is required'],
    [{ properties: { '1st': { type: 'string', description: 'x' } }, required: [] }, 'Parameter names must start with a letter and use only letters, numbers and underscores'],
    [{ required: ['orderId', 'customer'] }, 'Required parameters must be defined'],
    [
      { properties: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`p${i}`, { type: 'string', description: 'x' }])), required: [] },
      'A tool can have at most 20 parameters',
    ],
  ])('%j → 400 %s', async (overrides, message) => {
    const res = await call(owner, 'POST', `/api/agents/${agent._id}/tools`, validTool(overrides));

    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, message });
  });

  it('creates a tool with defaults (GET, no header) and lists it', async () => {
    const fresh = await createAgent(owner);
    const res = await call<AgentTool>(owner, 'POST', `/api/agents/${fresh._id}/tools`, {
      name: 'get_price',
      description: 'Price of a product',
      endpoint: 'https://shop.example.com/price',
    });

    expect(res.status).toBe(201);
    expect(res.body.message).toBe('Tool created successfully');
    expect(res.body.data).toMatchObject({
      name: 'get_price',
      type: 'http_request',
      method: 'GET',
      headerKey: '',
      headerValue: '',
      properties: {},
      required: [],
    });
    expect((await call<AgentTool[]>(owner, 'GET', `/api/agents/${fresh._id}/tools`)).body.data).toEqual([res.body.data]);
    expect((await call<Agent>(owner, 'GET', `/api/agents/${fresh._id}`)).body.data!.tools).toEqual([res.body.data]);
  });

  it('keeps names unique per agent (409), on create and on rename', async () => {
    const fresh = await createAgent(owner);
    const other = await createAgent(owner);
    await createTool(owner, fresh._id, { name: 'book_table' });
    const second = await createTool(owner, fresh._id, { name: 'cancel_table' });

    const duplicate = await call(owner, 'POST', `/api/agents/${fresh._id}/tools`, validTool({ name: 'book_table' }));
    const rename = await call(owner, 'PUT', `/api/agents/${fresh._id}/tools/${second._id}`, validTool({ name: 'book_table' }));
    const elsewhere = await call(owner, 'POST', `/api/agents/${other._id}/tools`, validTool({ name: 'book_table' }));

    expect([duplicate.status, duplicate.body.message]).toEqual([409, 'A tool with this name already exists for this agent']);
    expect([rename.status, rename.body.message]).toEqual([409, 'A tool with this name already exists for this agent']);
    expect(elsewhere.status).toBe(201);
  });

  it('seals the header value at rest, answers it as ***, keeps it on *** and clears it on ""', async () => {
    const fresh = await createAgent(owner);
    const created = await call<AgentTool>(owner, 'POST', `/api/agents/${fresh._id}/tools`, validTool({ headerKey: 'X-Api-Key', headerValue: 'sk-live-4242' }));
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ headerKey: 'X-Api-Key', headerValue: '***' });
    const toolId = created.body.data!._id;
    const sk = `AGENT#${fresh._id}#TOOL#${toolId}`;
    const stored = await getItem(`USER#${owner.userId}`, sk);
    const sealed = String(stored?.sealedHeaderValue);
    expect(sealed).not.toBe('');
    expect(sealed).not.toContain('sk-live-4242');
    expect(JSON.stringify(stored)).not.toContain('sk-live-4242');

    // '***' keeps the stored value while other fields change.
    const kept = await call<AgentTool>(owner, 'PUT', `/api/agents/${fresh._id}/tools/${toolId}`, validTool({ description: 'Changed', headerKey: 'X-Api-Key', headerValue: '***' }));
    expect(kept.status).toBe(200);
    expect(kept.body.message).toBe('Tool updated successfully');
    expect(kept.body.data).toMatchObject({ description: 'Changed', headerValue: '***', createdAt: created.body.data!.createdAt });
    expect((await getItem(`USER#${owner.userId}`, sk))?.sealedHeaderValue).toBe(sealed);

    // A new value is sealed again.
    await call(owner, 'PUT', `/api/agents/${fresh._id}/tools/${toolId}`, validTool({ headerKey: 'X-Api-Key', headerValue: 'sk-live-9999' }));
    const resealed = String((await getItem(`USER#${owner.userId}`, sk))?.sealedHeaderValue);
    expect(resealed).not.toBe(sealed);
    expect(resealed).not.toContain('sk-live-9999');

    // '' clears it.
    const cleared = await call<AgentTool>(owner, 'PUT', `/api/agents/${fresh._id}/tools/${toolId}`, validTool({ headerKey: 'X-Api-Key', headerValue: '' }));
    expect(cleared.body.data).toMatchObject({ headerKey: 'X-Api-Key', headerValue: '' });
    expect((await getItem(`USER#${owner.userId}`, sk))?.sealedHeaderValue).toBe('');
  });

  it('updates every field of a tool and deletes it', async () => {
    const fresh = await createAgent(owner);
    const tool = await createTool(owner, fresh._id);

    const updated = await call<AgentTool>(owner, 'PUT', `/api/agents/${fresh._id}/tools/${tool._id}`, {
      name: 'create_booking',
      description: 'Books a table',
      endpoint: 'https://api.example.com/bookings',
      method: 'POST',
      properties: {
        date: { type: 'string', description: 'Day' },
        people: { type: 'number', description: 'Guests' },
      },
      required: ['date', 'people'],
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({
      _id: tool._id,
      name: 'create_booking',
      method: 'POST',
      properties: { date: { type: 'string', description: 'Day' }, people: { type: 'number', description: 'Guests' } },
      required: ['date', 'people'],
    });

    const removed = await call(owner, 'DELETE', `/api/agents/${fresh._id}/tools/${tool._id}`);
    expect([removed.status, removed.body.message]).toEqual([200, 'Tool deleted successfully']);
    expect((await call<AgentTool[]>(owner, 'GET', `/api/agents/${fresh._id}/tools`)).body.data).toEqual([]);
  });
});
