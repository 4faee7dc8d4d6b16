/**
 * The owner's settings behind the agent's WhatsApp tools (issue 31), through the local gateway
 * and DynamoDB Local: the per-agent switches merged on PUT /api/agents/{id}, a file's "can be sent
 * to customers" (PATCH …/files/{fileId}), the business location (GET/PUT/DELETE
 * /api/user/business-location, from coordinates or a Google Maps link), each user's own; and the
 * Test Agent chat showing what the tools would send (the fake OpenAI scripted to call them).
 */
import { randomUUID } from 'node:crypto';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import type { Agent, AgentFile, ChatReply } from '../../src/contract/agents.js';
import { mediaMessages, type BusinessLocation } from '../../src/contract/whatsapp-media.js';
import { api, db, provided, tableName } from '../support/api.js';
import { agentsUser, call, connectChatGpt, createAgent, createEnabledAgent, uploadMultipart, type AgentsUser } from '../support/agents-api.js';

const MAPS_LINK = 'https://www.google.com/maps/place/Cl%C3%ADnica+Dental/@40.4187,-3.6966,17z/data=!3m1!4b1!4m6!3m5!1s0xd42289';

const location = (user: AgentsUser) => call<BusinessLocation | null>(user, 'GET', '/api/user/business-location');
const saveLocation = (user: AgentsUser, body: unknown) => call<BusinessLocation>(user, 'PUT', '/api/user/business-location', body);

async function fileOf(user: AgentsUser, agentId: string): Promise<AgentFile> {
  const upload = await uploadMultipart(user, agentId, [{ name: 'Tarifas 2026.txt', type: 'text/plain', bytes: 'Limpieza dental: 60 €. Blanqueamiento: 250 €.' }]);
  expect(upload.status).toBe(201);
  return upload.body.data![0]!;
}

async function completed(user: AgentsUser, agentId: string, fileId: string): Promise<AgentFile> {
  for (let i = 0; i < 150; i++) {
    const files = (await call<AgentFile[]>(user, 'GET', `/api/agents/${agentId}/files`)).body.data ?? [];
    const file = files.find((f) => f._id === fileId);
    if (file && file.status !== 'pending' && file.status !== 'uploading') return file;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the file was not read in time');
}

describe('PUT /api/agents/{id}: the WhatsApp tool switches', () => {
  it('are all off on a new agent, and a partial change merges: the other switches stay as they were', async () => {
    const user = await agentsUser();
    const agent = await createAgent(user, 'Sonia');
    expect(agent.whatsappTools).toEqual({ sendFiles: false, sendLocation: false, offerChoices: false });

    const first = await call<Agent>(user, 'PUT', `/api/agents/${agent._id}`, { whatsappTools: { sendFiles: true } });
    expect(first.status).toBe(200);
    expect(first.body.data!.whatsappTools).toEqual({ sendFiles: true, sendLocation: false, offerChoices: false });

    const second = await call<Agent>(user, 'PUT', `/api/agents/${agent._id}`, { whatsappTools: { offerChoices: true }, name: 'Sonia Pérez' });
    expect(second.body.data!.whatsappTools).toEqual({ sendFiles: true, sendLocation: false, offerChoices: true });
    expect(second.body.data!.name).toBe('Sonia Pérez');

    // A change of other fields leaves the switches alone; a reload reads what was stored.
    await call(user, 'PUT', `/api/agents/${agent._id}`, { description: 'Recepción' });
    const read = await call<Agent>(user, 'GET', `/api/agents/${agent._id}`);
    expect(read.body.data!.whatsappTools).toEqual({ sendFiles: true, sendLocation: false, offerChoices: true });

    const off = await call<Agent>(user, 'PUT', `/api/agents/${agent._id}`, { whatsappTools: { sendFiles: false } });
    expect(off.body.data!.whatsappTools).toEqual({ sendFiles: false, sendLocation: false, offerChoices: true });
  });

  it('an agent stored before the switches (no map on its item) gets one on its first change', async () => {
    const user = await agentsUser();
    const agent = await createAgent(user, 'Antigua');
    await db().send(
      new UpdateCommand({ TableName: tableName(), Key: { pk: `USER#${user.userId}`, sk: `AGENT#${agent._id}` }, UpdateExpression: 'REMOVE whatsappTools' }),
    );
    expect((await call<Agent>(user, 'GET', `/api/agents/${agent._id}`)).body.data!.whatsappTools).toEqual({ sendFiles: false, sendLocation: false, offerChoices: false });

    const res = await call<Agent>(user, 'PUT', `/api/agents/${agent._id}`, { whatsappTools: { sendLocation: true } });
    expect(res.status).toBe(200);
    expect(res.body.data!.whatsappTools).toEqual({ sendFiles: false, sendLocation: true, offerChoices: false });
    const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: { pk: `USER#${user.userId}`, sk: `AGENT#${agent._id}` } }));
    expect(Item!.whatsappTools).toEqual({ sendFiles: false, sendLocation: true, offerChoices: false });
  });

  it('refuses a switch that is not true/false, or an unknown one, with the contract message (400), changing nothing', async () => {
    const user = await agentsUser();
    const agent = await createAgent(user, 'Sonia');
    for (const whatsappTools of [{ sendFiles: 'yes' }, { sendFiles: true, teleport: true }, 'on', [true]]) {
      const res = await call(user, 'PUT', `/api/agents/${agent._id}`, { whatsappTools });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(mediaMessages.whatsappToolsInvalid);
    }
    expect((await call<Agent>(user, 'GET', `/api/agents/${agent._id}`)).body.data!.whatsappTools).toEqual({ sendFiles: false, sendLocation: false, offerChoices: false });
  });
});

describe('PATCH /api/agents/{id}/files/{fileId}: "can be sent to customers"', () => {
  it('marks and unmarks a file, read back on the agent; a bad body is a 400 and another user’s file a 404', async () => {
    const user = await agentsUser();
    const agent = await createAgent(user, 'Sonia');
    const file = await fileOf(user, agent._id);
    expect(file.shareable).toBe(false);

    const on = await call<AgentFile>(user, 'PATCH', `/api/agents/${agent._id}/files/${file._id}`, { shareable: true });
    expect(on.status).toBe(200);
    expect(on.body.message).toBe(mediaMessages.fileShareableOn);
    expect(on.body.data).toMatchObject({ _id: file._id, shareable: true, originalName: 'Tarifas 2026.txt' });
    expect(on.body.data).not.toHaveProperty('s3Key');
    expect((await call<Agent>(user, 'GET', `/api/agents/${agent._id}`)).body.data!.files[0]!.shareable).toBe(true);

    for (const body of [{ shareable: 'sí' }, {}, { shareable: null }]) {
      const bad = await call(user, 'PATCH', `/api/agents/${agent._id}/files/${file._id}`, body);
      expect(bad.status).toBe(400);
      expect(bad.body.message).toBe(mediaMessages.shareableInvalid);
    }
    expect((await call<Agent>(user, 'GET', `/api/agents/${agent._id}`)).body.data!.files[0]!.shareable).toBe(true);

    // Another user: neither the agent nor the file is theirs.
    const other = await agentsUser();
    const foreign = await call(other, 'PATCH', `/api/agents/${agent._id}/files/${file._id}`, { shareable: false });
    expect(foreign.status).toBe(404);
    // A file id that is not this agent's (nor anyone's), and one that cannot be an id.
    const otherAgent = await createAgent(user, 'Otra');
    expect((await call(user, 'PATCH', `/api/agents/${otherAgent._id}/files/${file._id}`, { shareable: false })).status).toBe(404);
    expect((await call(user, 'PATCH', `/api/agents/${agent._id}/files/not-an-id`, { shareable: false })).status).toBe(404);
    expect((await call<Agent>(user, 'GET', `/api/agents/${agent._id}`)).body.data!.files[0]!.shareable).toBe(true);

    const off = await call<AgentFile>(user, 'PATCH', `/api/agents/${agent._id}/files/${file._id}`, { shareable: false });
    expect(off.body.message).toBe(mediaMessages.fileShareableOff);
    expect(off.body.data!.shareable).toBe(false);
  });
});

describe('/api/user/business-location', () => {
  it('is none until saved; saved from a Google Maps link and from typed coordinates; cleared', async () => {
    const user = await agentsUser();
    const empty = await location(user);
    expect(empty.status).toBe(200);
    expect(empty.body.data).toBeNull();

    const saved = await saveLocation(user, { name: '  Clínica Dental Pérez ', address: 'Calle de Alcalá 42, 28014 Madrid', coordinates: MAPS_LINK });
    expect(saved.status).toBe(200);
    expect(saved.body.message).toBe(mediaMessages.locationSaved);
    expect(saved.body.data).toEqual({ name: 'Clínica Dental Pérez', address: 'Calle de Alcalá 42, 28014 Madrid', latitude: 40.4187, longitude: -3.6966 });
    expect((await location(user)).body.data).toEqual(saved.body.data);

    const typed = await saveLocation(user, { name: 'Clínica Dental Pérez', address: 'Gran Vía 1, Madrid', coordinates: '40.4168, -3.7038' });
    expect(typed.body.data).toMatchObject({ latitude: 40.4168, longitude: -3.7038, address: 'Gran Vía 1, Madrid' });

    const cleared = await call(user, 'DELETE', '/api/user/business-location');
    expect(cleared.status).toBe(200);
    expect(cleared.body.message).toBe(mediaMessages.locationCleared);
    expect((await location(user)).body.data).toBeNull();
    // Clearing twice is fine.
    expect((await call(user, 'DELETE', '/api/user/business-location')).status).toBe(200);
  });

  it('refuses coordinates it cannot read, out of range, a decimal comma, and missing fields (400, the contract message), keeping what was stored', async () => {
    const user = await agentsUser();
    await saveLocation(user, { name: 'Clínica', address: 'Calle de Alcalá 42', coordinates: '40.4168, -3.7038' });
    for (const coordinates of ['en el centro', '95.1, 3.2', '40,4168 -3,7038', 'https://maps.app.goo.gl/abc123', '']) {
      const res = await saveLocation(user, { name: 'Clínica', address: 'Otra calle', coordinates });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(mediaMessages.locationCoordinatesInvalid);
    }
    const noName = await saveLocation(user, { name: '  ', address: 'Calle', coordinates: '40.1, -3.1' });
    expect(noName.status).toBe(400);
    expect(noName.body.message).toBe(mediaMessages.locationNameRequired);
    const longAddress = await saveLocation(user, { name: 'Clínica', address: 'x'.repeat(301), coordinates: '40.1, -3.1' });
    expect(longAddress.status).toBe(400);
    expect(longAddress.body.message).toBe(mediaMessages.locationAddressTooLong);
    const notJson = await api('PUT', '/api/user/business-location', { token: user.token, rawBody: '{"name":', headers: { 'content-type': 'application/json' } });
    expect(notJson.status).toBe(400);
    expect((await location(user)).body.data).toMatchObject({ address: 'Calle de Alcalá 42', latitude: 40.4168 });
  });

  it('is each user’s own: another user neither reads nor clears it; no token is a 401', async () => {
    const owner = await agentsUser();
    const other = await agentsUser();
    await saveLocation(owner, { name: 'Clínica', address: 'Calle de Alcalá 42', coordinates: '40.4168, -3.7038' });
    expect((await location(other)).body.data).toBeNull();
    await call(other, 'DELETE', '/api/user/business-location');
    expect((await location(owner)).body.data).toMatchObject({ name: 'Clínica' });
    expect((await api('GET', '/api/user/business-location')).status).toBe(401);
  });
});

describe('The Test Agent chat shows what the WhatsApp tools would send', () => {
  async function script(key: string, responses: unknown[]): Promise<void> {
    const res = await fetch(`${provided('openaiUrl')}/_test/script`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ key, responses }) });
    if (!res.ok) throw new Error(`script failed: ${res.status}`);
  }
  const toolCall = (name: string, args: unknown) => ({ id: `call_${randomUUID().slice(0, 8)}`, type: 'function', function: { name, arguments: JSON.stringify(args) } });
  const toolTurn = (...calls: unknown[]) => ({ content: null, tool_calls: calls });
  const textTurn = (content: string) => ({ content });

  it('a shareable file, the business location and the options, without the stored object key; another user’s file is refused', async () => {
    const user = await agentsUser();
    const key = await connectChatGpt(user);
    const agent = await createEnabledAgent(user, 'Sonia', 'Eres la recepcionista de la Clínica Dental Pérez.');
    const file = await fileOf(user, agent._id);
    await completed(user, agent._id, file._id);
    await call(user, 'PATCH', `/api/agents/${agent._id}/files/${file._id}`, { shareable: true });
    await call(user, 'PUT', `/api/agents/${agent._id}`, { whatsappTools: { sendFiles: true, sendLocation: true, offerChoices: true } });
    await saveLocation(user, { name: 'Clínica Dental Pérez', address: 'Calle de Alcalá 42, 28014 Madrid', coordinates: MAPS_LINK });
    const foreignFile = randomUUID();

    await script(key, [
      toolTurn(
        toolCall('send_file', { file_id: file._id, caption: 'Nuestras tarifas' }),
        toolCall('send_file', { file_id: foreignFile }),
        toolCall('send_location', {}),
        toolCall('offer_choices', { options: [{ title: 'Limpieza dental' }, { title: 'Ortodoncia invisible con alineadores' }] }),
      ),
      textTurn('Te mando las tarifas y la ubicación. ¿Qué tratamiento te interesa?'),
    ]);
    const res = await api<ChatReply>('POST', `/api/agents/${agent._id}/chat`, { token: user.token, body: { message: '¿Me mandas las tarifas?', messages: [] } });
    expect(res.status).toBe(200);
    const data = res.body.data!;
    expect(data.outbound).toEqual([
      { type: 'file', fileId: file._id, fileName: 'Tarifas 2026.txt', mimeType: 'text/plain', caption: 'Nuestras tarifas' },
      { type: 'location', location: { name: 'Clínica Dental Pérez', address: 'Calle de Alcalá 42, 28014 Madrid', latitude: 40.4187, longitude: -3.6966 } },
    ]);
    expect(JSON.stringify(data)).not.toContain('agents/');
    expect(data.choices).toEqual({ kind: 'buttons', options: [{ id: 'opt_1', title: 'Limpieza dental' }, { id: 'opt_2', title: 'Ortodoncia…' }] });
    expect(data.toolCalls.map((c) => [c.name, c.ok])).toEqual([
      ['send_file', true],
      ['send_file', false],
      ['send_location', true],
      ['offer_choices', true],
    ]);
  });
});
