/**
 * The agent's built-in WhatsApp tools (issue 31): offered only when the agent's switch is on and
 * the channel is WhatsApp (or the test chat, which shows what would be sent), never on a call;
 * they record what goes with the reply and send nothing.
 */
import { describe, expect, it } from 'vitest';
import { MEDIA_LIMITS, type BusinessLocation } from '../../../src/contract/whatsapp-media.js';
import type { AgentWithChildren, FileRecord } from '../../../src/domain/agents/ports.js';
import { answerAs } from '../../../src/domain/agents/runtime/answer.js';
import { answerAs as answerWithWhatsAppTools } from '../../../src/domain/agents/runtime/index.js';
import { runAgent, type RunAgentInput } from '../../../src/domain/agents/runtime/run-agent.js';
import { OFFER_CHOICES, SEND_FILE, SEND_LOCATION, whatsappToolsRuntime as runtime } from '../../../src/domain/agents/runtime/whatsapp-tools.js';
import { agent, call, FakeEmbedder, MemoryRetriever, RecordingExecutor, ScriptedModel, settings, textReply, toolsReply } from './fakes.js';

const CLINIC: BusinessLocation = { name: 'Clínica Dental Pérez', address: 'Calle de Alcalá 42, 28014 Madrid', latitude: 40.4187, longitude: -3.6966 };

const file = (over: Partial<FileRecord>): FileRecord => ({
  id: 'f1',
  _id: 'f1',
  agentId: 'agent1',
  shareable: true,
  originalName: 'Tarifas 2026.pdf',
  mimeType: 'application/pdf',
  size: 2048,
  uploadedAt: '2026-01-01T00:00:00.000Z',
  status: 'completed',
  s3Key: 'agents/user1/agent1/f1/Tarifas_2026.pdf',
  ...over,
});

const FILES = [
  file({}),
  file({ id: 'f2', _id: 'f2', originalName: 'Notas internas.pdf', shareable: false, s3Key: 'agents/user1/agent1/f2/x.pdf' }),
  file({ id: 'f3', _id: 'f3', originalName: 'Carta.docx', status: 'pending', s3Key: 'agents/user1/agent1/f3/x.docx' }),
];

const ALL_ON = { sendFiles: true, sendLocation: true, offerChoices: true };

function turn(over: Partial<RunAgentInput> & { model: ScriptedModel }): RunAgentInput {
  return {
    userId: 'user1',
    agent: agent({ language: 'es', whatsappTools: ALL_ON, files: FILES }),
    settings: settings(),
    embedder: new FakeEmbedder(),
    retriever: new MemoryRetriever(),
    tools: new RecordingExecutor(),
    history: [],
    message: '¿Me mandas las tarifas y dónde estáis?',
    channel: 'whatsapp',
    whatsapp: { runtime, businessLocation: async () => CLINIC },
    ...over,
  };
}

const offered = (model: ScriptedModel) => model.requests[0]!.tools!.map((t) => t.name);
const WHATSAPP = [SEND_FILE, SEND_LOCATION, OFFER_CHOICES];

describe('WhatsApp tools: when they are offered', () => {
  it('offers the three tools on WhatsApp when their switches are on, with the sendable files listed and the prompt saying when to use them', async () => {
    const model = new ScriptedModel([textReply('Hola')]);
    await runAgent(turn({ model }));
    expect(offered(model)).toEqual(expect.arrayContaining(WHATSAPP));
    const sendFile = model.requests[0]!.tools!.find((t) => t.name === SEND_FILE)!;
    // Only the shareable, completed file: not the private one, not the one still being read.
    expect(sendFile.description).toContain('Tarifas 2026.pdf [file_id=f1]');
    expect(sendFile.description).not.toContain('Notas internas');
    expect(sendFile.description).not.toContain('Carta.docx');
    const system = String(model.requests[0]!.messages[0]!.content);
    expect(system).toContain(SEND_FILE);
    expect(system).toContain('Calle de Alcalá 42');
    expect(system).toContain(OFFER_CHOICES);
  });

  it('offers none with every switch off, and only the switched-on ones otherwise', async () => {
    const off = new ScriptedModel([textReply('Hola')]);
    await runAgent(turn({ model: off, agent: agent({ whatsappTools: { sendFiles: false, sendLocation: false, offerChoices: false }, files: FILES }) }));
    expect(offered(off)).not.toEqual(expect.arrayContaining([SEND_FILE]));
    for (const name of WHATSAPP) expect(offered(off)).not.toContain(name);
    expect(String(off.requests[0]!.messages[0]!.content)).not.toContain(SEND_FILE);

    const some = new ScriptedModel([textReply('Hola')]);
    await runAgent(turn({ model: some, agent: agent({ whatsappTools: { sendFiles: false, sendLocation: false, offerChoices: true }, files: FILES }) }));
    expect(offered(some).filter((n) => WHATSAPP.includes(n))).toEqual([OFFER_CHOICES]);
  });

  it('never offers them on a call, nor to a channel that gives no WhatsApp turn', async () => {
    const voice = new ScriptedModel([textReply('Hola')]);
    await runAgent(turn({ model: voice, channel: 'voice' }));
    for (const name of WHATSAPP) expect(offered(voice)).not.toContain(name);

    const none = new ScriptedModel([textReply('Hola')]);
    await runAgent(turn({ model: none, whatsapp: undefined }));
    for (const name of WHATSAPP) expect(offered(none)).not.toContain(name);
  });

  it('answerAs gives the turn on WhatsApp and in the test chat, not on a call; send_location only with a location reader', async () => {
    const deps = { retriever: new MemoryRetriever(), tools: new RecordingExecutor(), whatsappTools: runtime, businessLocations: { get: async () => CLINIC } };
    const connection = (model: ScriptedModel) => ({ settings: settings(), chat: model, embedder: new FakeEmbedder() });
    const ask = async (channel: 'whatsapp' | 'chat' | 'voice', withLocations = true) => {
      const model = new ScriptedModel([textReply('Hola')]);
      await answerAs(channel, withLocations ? deps : { retriever: deps.retriever, tools: deps.tools, whatsappTools: runtime }, {
        userId: 'user1',
        agent: agent({ whatsappTools: ALL_ON, files: FILES }),
        connection: connection(model),
        history: [],
        message: 'Hola',
      });
      return offered(model).filter((n) => WHATSAPP.includes(n));
    };
    expect(await ask('whatsapp')).toEqual(WHATSAPP);
    expect(await ask('chat')).toEqual(WHATSAPP);
    expect(await ask('voice')).toEqual([]);
    expect(await ask('whatsapp', false)).toEqual([SEND_FILE, OFFER_CHOICES]);
  });

  it('answer.ts answerAs (the calls\' one) offers none unless the tools are handed in; index.ts answerAs fills them in', async () => {
    const model = new ScriptedModel([textReply('Hola')]);
    await answerAs('whatsapp', { retriever: new MemoryRetriever(), tools: new RecordingExecutor(), businessLocations: { get: async () => CLINIC } }, {
      userId: 'user1',
      agent: agent({ whatsappTools: ALL_ON, files: FILES }),
      connection: { settings: settings(), chat: model, embedder: new FakeEmbedder() },
      history: [],
      message: 'Hola',
    });
    for (const name of WHATSAPP) expect(offered(model)).not.toContain(name);

    // index.ts's answerAs (the WhatsApp channel's) fills them in.
    const withTools = new ScriptedModel([textReply('Hola')]);
    await answerWithWhatsAppTools('whatsapp', { retriever: new MemoryRetriever(), tools: new RecordingExecutor(), businessLocations: { get: async () => CLINIC } }, {
      userId: 'user1',
      agent: agent({ whatsappTools: ALL_ON, files: FILES }),
      connection: { settings: settings(), chat: withTools, embedder: new FakeEmbedder() },
      history: [],
      message: 'Hola',
    });
    expect(offered(withTools).filter((n) => WHATSAPP.includes(n))).toEqual(WHATSAPP);
  });

  it('does not offer send_file when no file is both shareable and read', async () => {
    const model = new ScriptedModel([textReply('Hola')]);
    await runAgent(turn({ model, agent: agent({ whatsappTools: ALL_ON, files: FILES.slice(1) }) }));
    expect(offered(model)).not.toContain(SEND_FILE);
    expect(offered(model)).toContain(SEND_LOCATION);
  });
});

describe('WhatsApp tools: what they record', () => {
  it('send_file and send_location record the file and the location for the reply, in order, and tell the model they will be sent', async () => {
    const model = new ScriptedModel([
      toolsReply(call(SEND_FILE, { file_id: 'f1', caption: 'Nuestras tarifas' }), call(SEND_LOCATION, {})),
      textReply('Te mando las tarifas y la ubicación.'),
    ]);
    const reply = await runAgent(turn({ model }));
    expect(reply.reply).toBe('Te mando las tarifas y la ubicación.');
    expect(reply.outbound).toEqual([
      { type: 'file', fileId: 'f1', fileName: 'Tarifas 2026.pdf', mimeType: 'application/pdf', s3Key: 'agents/user1/agent1/f1/Tarifas_2026.pdf', caption: 'Nuestras tarifas' },
      { type: 'location', location: CLINIC },
    ]);
    expect(reply.toolCalls.map((c) => [c.name, c.ok])).toEqual([
      [SEND_FILE, true],
      [SEND_LOCATION, true],
    ]);
    expect(reply.toolCalls[0]!.result).toContain('will be sent with your reply');
  });

  it('refuses a file that is not shareable, not read yet, or another agent’s, and records nothing', async () => {
    for (const id of ['f2', 'f3', 'someone-elses-file']) {
      const model = new ScriptedModel([toolsReply(call(SEND_FILE, { file_id: id })), textReply('Lo siento.')]);
      const reply = await runAgent(turn({ model }));
      expect(reply.outbound).toBeUndefined();
      expect(reply.toolCalls[0]).toMatchObject({ name: SEND_FILE, ok: false });
      expect(reply.toolCalls[0]!.result).toContain(`No file with file_id=${id} can be sent`);
      expect(reply.toolCalls[0]!.result).toContain('Tarifas 2026.pdf');
    }
  });

  it('a file asked twice goes once', async () => {
    const model = new ScriptedModel([toolsReply(call(SEND_FILE, { file_id: 'f1' }), call(SEND_FILE, { file_id: 'f1' })), textReply('Ahí va.')]);
    const reply = await runAgent(turn({ model }));
    expect(reply.outbound).toHaveLength(1);
  });

  it('send_location without a business location answers so and records nothing', async () => {
    const model = new ScriptedModel([toolsReply(call(SEND_LOCATION, {})), textReply('Estamos en Madrid.')]);
    const reply = await runAgent(turn({ model, whatsapp: { runtime, businessLocation: async () => null } }));
    expect(reply.outbound).toBeUndefined();
    expect(reply.toolCalls[0]).toMatchObject({ ok: false });
    expect(reply.toolCalls[0]!.result).toContain('has not set its location');
    expect(String(model.requests[0]!.messages[0]!.content)).toContain('has not set its location');
  });

  it('a location that cannot be read is "not set" and logged, the reply still goes', async () => {
    const errors: string[] = [];
    const model = new ScriptedModel([toolsReply(call(SEND_LOCATION, {})), textReply('Estamos en Madrid.')]);
    const reply = await runAgent(
      turn({
        model,
        whatsapp: {
          runtime,
          businessLocation: async () => {
            throw new Error('table down');
          },
        },
        onError: (m) => errors.push(m),
      }),
    );
    expect(reply.reply).toBe('Estamos en Madrid.');
    expect(reply.outbound).toBeUndefined();
    expect(errors.some((e) => e.includes('business location'))).toBe(true);
  });

  it('offer_choices: up to 3 options are reply buttons, titles cut to 20 characters, ids stable', async () => {
    const model = new ScriptedModel([
      toolsReply(call(OFFER_CHOICES, { options: [{ title: 'Limpieza dental' }, { title: 'Ortodoncia invisible con alineadores' }, 'Revisión'] })),
      textReply('¿Qué necesitas?'),
    ]);
    const reply = await runAgent(turn({ model }));
    expect(reply.choices).toEqual({
      kind: 'buttons',
      options: [
        { id: 'opt_1', title: 'Limpieza dental' },
        { id: 'opt_2', title: 'Ortodoncia…' },
        { id: 'opt_3', title: 'Revisión' },
      ],
    });
    for (const o of reply.choices!.options) expect(o.title.length).toBeLessThanOrEqual(MEDIA_LIMITS.buttons.titleChars);
    expect(reply.toolCalls[0]!.result).toContain('will be shown under your reply');
  });

  it('offer_choices: 4 to 10 options are a list (titles 24, descriptions 72, a Spanish button label); more than 10 or fewer than 2 are refused', async () => {
    const long = 'x'.repeat(200);
    const options = Array.from({ length: 10 }, (_, i) => ({ title: `Martes ${i + 1} a las 10:30 con la Dra. Pérez`, description: long }));
    const model = new ScriptedModel([toolsReply(call(OFFER_CHOICES, { options })), textReply('¿Qué hora te va mejor?')]);
    const reply = await runAgent(turn({ model }));
    expect(reply.choices!.kind).toBe('list');
    expect(reply.choices!.buttonLabel).toBe('Ver opciones');
    expect(reply.choices!.options.map((o) => o.id)).toEqual(Array.from({ length: 10 }, (_, i) => `opt_${i + 1}`));
    for (const o of reply.choices!.options) {
      expect(o.title.length).toBeLessThanOrEqual(MEDIA_LIMITS.list.titleChars);
      expect(o.description!.length).toBeLessThanOrEqual(MEDIA_LIMITS.list.descriptionChars);
    }

    const tooMany = new ScriptedModel([toolsReply(call(OFFER_CHOICES, { options: [...options, { title: 'Otra' }] })), textReply('¿Cuándo?')]);
    const refused = await runAgent(turn({ model: tooMany }));
    expect(refused.choices).toBeUndefined();
    expect(refused.toolCalls[0]).toMatchObject({ ok: false });

    // Two titles that are one after cutting count once: one option left is no choice.
    const same = new ScriptedModel([toolsReply(call(OFFER_CHOICES, { options: ['Sí', 'sí'] })), textReply('¿Vienes?')]);
    const single = await runAgent(turn({ model: same }));
    expect(single.choices).toBeUndefined();
    expect(single.toolCalls[0]!.ok).toBe(false);
  });

  it('tools whose switch is off are unknown to the runtime even if the model names them', async () => {
    const model = new ScriptedModel([toolsReply(call(SEND_FILE, { file_id: 'f1' })), textReply('Hola')]);
    const reply = await runAgent(turn({ model, agent: agent({ whatsappTools: { sendFiles: false, sendLocation: false, offerChoices: true }, files: FILES }) }));
    expect(reply.outbound).toBeUndefined();
    expect(reply.toolCalls[0]).toMatchObject({ ok: false });
  });
});

// Keeps the fixture's type honest: an agent of the runtime's shape.
export const _agent: AgentWithChildren = agent();
