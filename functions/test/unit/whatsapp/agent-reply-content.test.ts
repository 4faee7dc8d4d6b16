/**
 * The agent's reply with more than text (issue 31; domain/whatsapp/agent-reply.ts, reply-outbound.ts,
 * outbound-content.ts) over memory stores, the real Graph clients and the fake Graph API on loopback
 * (which checks every send against Meta's shapes): choices go as reply buttons or a list and are
 * stored as interactive (and resumed so on a retried job); the files and location the agent sends
 * follow the reply, each its own message and plan message, stored failed with why when they cannot
 * go, never failing the reply; the history shows the options the agent offered.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeWhatsApp, type FakeWhatsApp } from '../../../local/fake-whatsapp/server.js';
import { HttpGraphClient } from '../../../src/adapters/whatsapp/graph.js';
import { HttpGraphMediaClient } from '../../../src/adapters/whatsapp/graph-media.js';
import { mediaMessages } from '../../../src/contract/whatsapp-media.js';
import type { AgentWithChildren, FileMetaMedia, FileRecord } from '../../../src/domain/agents/ports.js';
import type { ConversationActivity, ConversationRepository, MessageRepository, ReplyDraft, StoredMessage } from '../../../src/domain/conversations/ports.js';
import { TransientError } from '../../../src/domain/retry.js';
import { createAgentReply, historyTurns, type AgentReplyDeps } from '../../../src/domain/whatsapp/agent-reply.js';
import { interactiveOf } from '../../../src/domain/whatsapp/outbound-content.js';
import { agent, call, FakeEmbedder, MemoryRetriever, RecordingExecutor, ScriptedModel, settings, textReply, toolsReply } from '../runtime/fakes.js';
import { conversation, message } from '../conversations-service/fakes.js';

const CUSTOMER = { waId: '34612345678', phone: '+34612345678', name: 'Lucía' };
const PHONE_ID = '106540352242922';
const T0 = Date.parse('2026-03-18T12:00:00.000Z');
const PDF = Buffer.from('%PDF-1.4\nTarifas 2026: limpieza 50 €, ortodoncia invisible desde 2.500 €\n');
const LOCATION = { name: 'Clínica Sonrisa', address: 'Calle Mayor 1, 28013 Madrid', latitude: 40.4168, longitude: -3.7038 };

let fake: FakeWhatsApp;
beforeAll(async () => {
  fake = await startFakeWhatsApp();
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const tarifas: FileRecord = {
  _id: 'file1',
  agentId: 'a1',
  originalName: 'Tarifas clínica.pdf',
  mimeType: 'application/pdf',
  size: PDF.length,
  status: 'completed',
  s3Key: 'agents/u1/a1/file1',
  shareable: true,
  uploadedAt: '2026-01-01T00:00:00.000Z',
} as FileRecord;

function setup(model: ScriptedModel, over: { agent?: Partial<AgentWithChildren>; objects?: Map<string, Uint8Array>; remembered?: FileMetaMedia[] } = {}) {
  const stored = new Map<string, StoredMessage>();
  const touches: ConversationActivity[] = [];
  const usage = { reserved: 0, released: 0 };
  let ids = 0;
  const note = (id: string, reply: ReplyDraft) => {
    const m = stored.get(id);
    if (m) m.reply = { ...reply };
  };
  const messages: Partial<MessageRepository> = {
    recent: async () => [...stored.values()],
    get: async (_u, id) => structuredClone(stored.get(id) ?? null),
    insertOutbound: async (_u, m, options) => {
      stored.set(m.id, structuredClone(m));
      if (options?.replyTo) note(options.replyTo, { id: m.id, state: 'sending' });
    },
    noteReply: async (_u, id, reply) => note(id, reply),
    markSent: async (_u, id, waMessageId) => Object.assign(stored.get(id)!, { status: 'sent', waMessageId }),
    markFailed: async (_u, id, error, detail) => Object.assign(stored.get(id)!, { status: 'failed', error, ...detail }),
  };
  const conversations: Partial<ConversationRepository> = { get: async () => null, touch: async (_u, _id, activity) => (touches.push(activity), null) };
  const sonia = agent({ _id: 'a1', name: 'Sonia', language: 'es', whatsappTools: { sendFiles: true, sendLocation: true, offerChoices: true }, files: [tarifas], ...over.agent });
  const objects = over.objects ?? new Map([[tarifas.s3Key, new Uint8Array(PDF)]]);
  const deps: AgentReplyDeps = {
    conversations: conversations as ConversationRepository,
    messages: messages as MessageRepository,
    agents: { get: async () => sonia, list: async () => [sonia] },
    ai: { forUser: async () => ({ settings: settings(), chat: model, embedder: new FakeEmbedder() }) },
    retriever: new MemoryRetriever(),
    tools: new RecordingExecutor(),
    businessLocations: { get: async () => LOCATION },
    usage: { reserve: async () => ++usage.reserved, release: async () => void usage.released++ },
    graph: new HttpGraphClient({ baseUrl: fake.graphUrl, timeoutMs: 2000 }),
    mediaUpload: { client: new HttpGraphMediaClient({ baseUrl: fake.graphUrl }), objects: { get: async (key) => objects.get(key) ?? null } },
    fileMedia: {
      remember: async (_u, agentId, fileId, media) => {
        expect([agentId, fileId]).toEqual(['a1', 'file1']);
        over.remembered?.push(media);
      },
    },
    connection: async () => ({ credentials: { bearerToken: 'EAAG-good', businessId: '102290129340398', phoneId: PHONE_ID }, phoneNumber: '+34910000000' }),
    newId: () => `ID${String(++ids).padStart(24, '0')}`,
    now: () => T0,
  };
  const conv = conversation();
  const asked = message(conv, { body: '¿Qué tratamientos tenéis?' });
  stored.set(asked.id, structuredClone(asked));
  const outgoing = () => [...stored.values()].filter((m) => m.fromMe);
  return { replies: createAgentReply(deps), conv, asked: () => structuredClone(stored.get(asked.id)!), stored, outgoing, touches, usage };
}

const payloads = () => fake.sent.filter((s) => s.phoneId === PHONE_ID).map((s) => ({ status: s.status, type: s.type, payload: s.payload }));

describe('agent reply with choices (reply buttons, lists)', () => {
  it('up to three options go as reply buttons, stored as interactive; the history shows the options offered', async () => {
    const t = setup(new ScriptedModel([toolsReply(call('offer_choices', { options: [{ title: 'Lunes' }, { title: 'Martes' }, { title: 'Miércoles' }] })), textReply('¿Qué día te viene mejor?')]));
    expect(await t.replies.answer('u1', t.conv, t.asked(), CUSTOMER)).toBe('replied');

    const [sent] = payloads();
    expect(sent).toMatchObject({ status: 200, type: 'interactive' });
    expect(sent!.payload.interactive).toEqual({
      type: 'button',
      body: { text: '¿Qué día te viene mejor?' },
      action: { buttons: ['Lunes', 'Martes', 'Miércoles'].map((title, i) => ({ type: 'reply', reply: { id: `opt_${i + 1}`, title } })) },
    });
    const [reply] = t.outgoing();
    expect(reply).toMatchObject({ type: 'interactive', status: 'sent', body: '¿Qué día te viene mejor?', interactive: { kind: 'buttons' } });
    expect(t.usage).toEqual({ reserved: 1, released: 0 });

    // The customer's tap comes back as their message (its title); the agent reads its own question with the options.
    const tapped = message(t.conv, { body: 'Martes' });
    expect(historyTurns([...t.stored.values(), tapped], tapped, 10).slice(-1)).toEqual([{ role: 'assistant', content: '¿Qué día te viene mejor? (options: Lunes / Martes / Miércoles)' }]);
  });

  it('more options go as a list with its button label; a text too long for Meta’s body carries them as lines', async () => {
    const options = ['Limpieza', 'Ortodoncia invisible', 'Blanqueamiento', 'Implantes'].map((title) => ({ title }));
    const t = setup(new ScriptedModel([toolsReply(call('offer_choices', { options, button_label: 'Ver tratamientos' })), textReply('Estos son nuestros tratamientos:')]));
    expect(await t.replies.answer('u1', t.conv, t.asked(), CUSTOMER)).toBe('replied');
    expect(payloads()[0]!.payload.interactive).toMatchObject({
      type: 'list',
      action: { button: 'Ver tratamientos', sections: [{ rows: options.map((o, i) => ({ id: `opt_${i + 1}`, title: o.title })) }] },
    });
    expect(t.outgoing()[0]).toMatchObject({ type: 'interactive', interactive: { kind: 'list', buttonLabel: 'Ver tratamientos' } });

    // Buttons whose titles do not fit become a list named in the agent's language.
    const wide = { kind: 'buttons' as const, options: [{ id: 'a', title: 'Ortodoncia invisible con alineadores' }] };
    expect(interactiveOf('¿Cuál?', wide, 'es')).toMatchObject({ kind: 'list', buttonLabel: 'Ver opciones' });
    expect(interactiveOf('Which one?', wide, 'en')).toMatchObject({ kind: 'list', buttonLabel: 'See options' });
    const long = 'x'.repeat(1100);
    expect(interactiveOf(long, { kind: 'buttons', options: [{ id: 'a', title: 'Sí' }] })).toBeNull();
  });

  it('a send Meta refuses (131009) is stored failed with Meta’s reason at once; a refusal for now resumes as buttons on the job’s retry', async () => {
    const refused = setup(new ScriptedModel([toolsReply(call('offer_choices', { options: ['Sí', 'No'] })), textReply('¿Confirmamos la cita?')]));
    fake.fail(PHONE_ID, { status: 400, code: 131009, message: '(#131009) Parameter value is not valid' });
    expect(await refused.replies.answer('u1', refused.conv, refused.asked(), CUSTOMER)).toBe('send_failed');
    expect(refused.outgoing()[0]).toMatchObject({ type: 'interactive', status: 'failed', error: '(#131009) Parameter value is not valid', errorCode: '131009' });
    expect(refused.usage).toEqual({ reserved: 1, released: 1 });

    fake.reset();
    const later = setup(new ScriptedModel([toolsReply(call('offer_choices', { options: ['Sí', 'No'] })), textReply('¿Confirmamos la cita?')]));
    fake.fail(PHONE_ID, { status: 503, code: 131016, message: '(#131016) Service unavailable' });
    await expect(later.replies.answer('u1', later.conv, later.asked(), CUSTOMER)).rejects.toBeInstanceOf(TransientError);
    expect(await later.replies.answer('u1', later.conv, later.asked(), CUSTOMER)).toBe('replied');
    expect(payloads().map((p) => [p.status, p.type])).toEqual([
      [503, 'interactive'],
      [200, 'interactive'],
    ]);
    expect(later.outgoing()).toHaveLength(1);
    expect(later.outgoing()[0]).toMatchObject({ type: 'interactive', status: 'sent' });
  });
});

describe('files and the location the agent sends', () => {
  it('each follows the reply as its own message: the file uploaded to Meta and sent by its id, then the location; one plan message each', async () => {
    const t = setup(
      new ScriptedModel([toolsReply(call('send_file', { file_id: 'file1', caption: 'Tarifas 2026' }), call('send_location', {})), textReply('Te envío las tarifas y cómo llegar.')]),
    );
    expect(await t.replies.answer('u1', t.conv, t.asked(), CUSTOMER)).toBe('replied');

    const sends = payloads();
    expect(sends.map((s) => [s.status, s.type])).toEqual([
      [200, 'text'],
      [200, 'document'],
      [200, 'location'],
    ]);
    const document = sends[1]!.payload.document as { id: string };
    expect(sends[1]!.payload.document).toEqual({ id: document.id, caption: 'Tarifas 2026', filename: 'Tarifas clínica.pdf' });
    expect(sends[2]!.payload.location).toEqual({ latitude: 40.4168, longitude: -3.7038, name: 'Clínica Sonrisa', address: 'Calle Mayor 1, 28013 Madrid' });
    // The fake holds the uploaded bytes under that id.
    const uploaded = await fetch(`${fake.url}/_test/media/uploads/${document.id}`);
    expect(Buffer.from(await uploaded.arrayBuffer()).equals(PDF)).toBe(true);

    const [, file, location] = t.outgoing();
    expect(file).toMatchObject({ type: 'document', status: 'sent', hasMedia: true, body: 'Tarifas 2026', media: { id: document.id, filename: 'Tarifas clínica.pdf', storedKey: tarifas.s3Key } });
    expect(location).toMatchObject({ type: 'location', status: 'sent', body: 'Clínica Sonrisa, Calle Mayor 1, 28013 Madrid', location: LOCATION });
    expect(t.usage).toEqual({ reserved: 3, released: 0 });
    expect(t.touches.map((a) => a.lastMessage.type)).toEqual(['chat', 'document', 'location']);
  });

  it('the file’s upload is kept on it: sent again within Meta’s 30 days by that id, without uploading; an older one (or another number’s) is uploaded again', async () => {
    const remembered: FileMetaMedia[] = [];
    const sendFile = () => new ScriptedModel([toolsReply(call('send_file', { file_id: 'file1' })), textReply('Aquí las tienes.')]);
    // The fake's uploads outlive its reset: counted from here.
    const uploadsSoFar = async () => ((await (await fetch(`${fake.url}/_test/media/uploads?phoneId=${PHONE_ID}`)).json()) as { uploads: unknown[] }).uploads.length;
    const before = await uploadsSoFar();
    const uploads = async () => (await uploadsSoFar()) - before;
    const first = setup(sendFile(), { remembered });
    expect(await first.replies.answer('u1', first.conv, first.asked(), CUSTOMER)).toBe('replied');
    expect(await uploads()).toBe(1);
    expect(remembered).toEqual([{ phoneId: PHONE_ID, mediaId: expect.stringMatching(/^\d+$/), at: new Date(T0).toISOString() }]);

    const again = setup(sendFile(), { agent: { files: [{ ...tarifas, metaMedia: remembered[0]! }] }, remembered });
    expect(await again.replies.answer('u1', again.conv, again.asked(), CUSTOMER)).toBe('replied');
    expect(await uploads()).toBe(1);
    const documents = fake.sent.filter((s) => s.type === 'document').map((s) => (s.payload.document as { id: string }).id);
    expect(documents).toEqual([remembered[0]!.mediaId, remembered[0]!.mediaId]);

    const old = { ...remembered[0]!, at: new Date(T0 - 30 * 24 * 3600 * 1000).toISOString() };
    const stale = setup(sendFile(), { agent: { files: [{ ...tarifas, metaMedia: old }] }, remembered });
    expect(await stale.replies.answer('u1', stale.conv, stale.asked(), CUSTOMER)).toBe('replied');
    const otherNumber = setup(sendFile(), { agent: { files: [{ ...tarifas, metaMedia: { ...remembered[0]!, phoneId: '999' } }] }, remembered });
    expect(await otherNumber.replies.answer('u1', otherNumber.conv, otherNumber.asked(), CUSTOMER)).toBe('replied');
    expect(await uploads()).toBe(3);
  });

  it('a file no longer stored is stored failed with why; the reply and the location still go, and its plan message is given back', async () => {
    const t = setup(new ScriptedModel([toolsReply(call('send_file', { file_id: 'file1' }), call('send_location', {})), textReply('Te envío las tarifas.')]), { objects: new Map() });
    expect(await t.replies.answer('u1', t.conv, t.asked(), CUSTOMER)).toBe('replied');
    expect(payloads().map((s) => s.type)).toEqual(['text', 'location']);
    const [reply, file, location] = t.outgoing();
    expect(reply).toMatchObject({ status: 'sent' });
    expect(file).toMatchObject({ type: 'document', status: 'failed', error: mediaMessages.outboundFileGone });
    expect(location).toMatchObject({ status: 'sent' });
    expect(t.usage).toEqual({ reserved: 3, released: 1 });
  });

  it('a refused location is stored failed with Meta’s reason, and the job’s retry does not send it again (at most once)', async () => {
    const t = setup(new ScriptedModel([toolsReply(call('send_location', {})), textReply('Aquí tienes la ubicación.')]));
    // The reply is refused for now (a retry comes), and so is the location sent after it.
    fake.fail(PHONE_ID, { count: 2, status: 503, code: 131016, message: '(#131016) Service unavailable' });
    await expect(t.replies.answer('u1', t.conv, t.asked(), CUSTOMER)).rejects.toBeInstanceOf(TransientError);
    expect(await t.replies.answer('u1', t.conv, t.asked(), CUSTOMER)).toBe('replied');
    expect(payloads().map((s) => [s.status, s.type])).toEqual([
      [503, 'text'],
      [503, 'location'],
      [200, 'text'],
    ]);
    const [reply, location] = t.outgoing();
    expect(reply).toMatchObject({ status: 'sent' });
    expect(location).toMatchObject({ type: 'location', status: 'failed', errorCode: '131016' });
  });
});
