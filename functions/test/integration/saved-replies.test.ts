/**
 * Saved replies (issue 17) through the local gateway against DynamoDB Local: CRUD round trip with
 * Spanish titles, validation 400s that write nothing, a case-insensitive duplicate title → 409,
 * the per-user cap (100 → 400, deleting frees a place), and another user's id → 404 on every
 * route that takes one.
 */
import { describe, expect, it } from 'vitest';
import { SAVED_REPLY_LIMITS, savedReplyMessages, type SavedReply } from '../../src/contract/saved-replies.js';
import { api, itemsOf, registerUser } from '../support/api.js';

async function owner(): Promise<{ token: string; userId: string }> {
  const { session } = await registerUser({ name: 'Clínica Peña' });
  return { token: session.token, userId: session.user._id };
}

const create = (token: string, body: unknown) => api<SavedReply>('POST', '/api/saved-replies', { token, body });
const list = async (token: string) => {
  const res = await api<SavedReply[]>('GET', '/api/saved-replies', { token });
  expect(res.status, res.body.message).toBe(200);
  return res.body.data ?? [];
};
/** Every saved-reply item of the user (replies, title items, the count), to prove a refusal wrote nothing. */
const savedReplyItems = async (userId: string) => (await itemsOf(`USER#${userId}`)).filter((i) => String(i.sk).startsWith('SAVEDREPL'));

describe('saved replies: CRUD', () => {
  it('creates, lists (by title), reads, replaces and deletes a reply with accents and ñ', async () => {
    const { token, userId } = await owner();

    const created = await create(token, { title: '  Cita médica  ', text: 'Su cita está confirmada para mañana a las 10:00.' });
    const second = await create(token, { title: 'Año nuevo', text: '¡Feliz año! Cerramos el 1 de enero.' });

    expect(created.status, created.body.message).toBe(201);
    expect(created.body.message).toBe(savedReplyMessages.created);
    const reply = created.body.data as SavedReply;
    expect(reply).toEqual({
      _id: expect.stringMatching(/^[0-9A-Z]{26}$/),
      title: 'Cita médica',
      text: 'Su cita está confirmada para mañana a las 10:00.',
      createdAt: expect.any(String),
      updatedAt: reply.createdAt,
    });
    expect((await list(token)).map((r) => r.title)).toEqual(['Año nuevo', 'Cita médica']);
    const read = await api<SavedReply>('GET', `/api/saved-replies/${reply._id}`, { token });
    expect(read.body.data).toEqual(reply);

    const put = await api<SavedReply>('PUT', `/api/saved-replies/${reply._id}`, { token, body: { title: 'Cita de niños', text: 'Traiga la cartilla del niño.' } });
    expect(put.status, put.body.message).toBe(200);
    expect(put.body.message).toBe(savedReplyMessages.updated);
    expect(put.body.data).toMatchObject({ _id: reply._id, title: 'Cita de niños', text: 'Traiga la cartilla del niño.', createdAt: reply.createdAt });
    // The old title is free again, the new one taken.
    expect((await create(token, { title: 'cita médica', text: 'Otra' })).status).toBe(201);
    expect((await create(token, { title: 'CITA DE NIÑOS', text: 'Otra' })).status).toBe(409);

    const del = await api('DELETE', `/api/saved-replies/${reply._id}`, { token });
    expect(del.status).toBe(200);
    expect(del.body.message).toBe(savedReplyMessages.deleted);
    expect((await api('GET', `/api/saved-replies/${reply._id}`, { token })).status).toBe(404);
    expect((await list(token)).map((r) => r.title)).toEqual(['Año nuevo', 'cita médica']);
    // Its title item is gone with it: the title can be used again.
    expect((await create(token, { title: 'Cita de niños', text: 'De nuevo' })).status).toBe(201);
    expect(second.status).toBe(201);
    const count = (await savedReplyItems(userId)).find((i) => i.sk === 'SAVEDREPLIES#COUNT');
    expect(count?.n).toBe(3);
  });
});

describe('saved replies: refusals', () => {
  it('answers 400 with the rule for empty, too long, missing and unknown fields, and writes nothing', async () => {
    const { token, userId } = await owner();
    const ok = (await create(token, { title: 'Horario', text: 'Abrimos de 9:00 a 14:00.' })).body.data as SavedReply;
    const before = await savedReplyItems(userId);

    const cases: [unknown, string][] = [
      [{ title: '   ', text: 'Hola' }, savedReplyMessages.titleRequired],
      [{ title: 'Hola', text: '' }, savedReplyMessages.textRequired],
      [{ text: 'Hola' }, savedReplyMessages.titleRequired],
      [{ title: 'ñ'.repeat(SAVED_REPLY_LIMITS.title + 1), text: 'Hola' }, savedReplyMessages.titleTooLong],
      [{ title: 'Hola', text: 'x'.repeat(SAVED_REPLY_LIMITS.text + 1) }, savedReplyMessages.textTooLong],
      [{ title: 'Hola', text: 'Hola', shortcut: '/hola' }, savedReplyMessages.unknownField('shortcut')],
      [['Hola'], savedReplyMessages.notObject],
    ];
    for (const [body, message] of cases) {
      for (const [method, path] of [['POST', '/api/saved-replies'], ['PUT', `/api/saved-replies/${ok._id}`]] as const) {
        const res = await api(method, path, { token, body });
        expect(res.status, `${method} ${JSON.stringify(body).slice(0, 60)}`).toBe(400);
        expect(res.body.message).toBe(message);
      }
    }

    expect(await savedReplyItems(userId)).toEqual(before);
    expect(await list(token)).toEqual([ok]);
  });

  it('accepts the limits exactly', async () => {
    const { token } = await owner();
    const res = await create(token, { title: 'ñ'.repeat(SAVED_REPLY_LIMITS.title), text: 'á'.repeat(SAVED_REPLY_LIMITS.text) });
    expect(res.status, res.body.message).toBe(201);
  });

  it('refuses a title the user already has, whatever its case, with 409 (create and rename)', async () => {
    const { token, userId } = await owner();
    const first = (await create(token, { title: 'Cita médica', text: 'Confirmada' })).body.data as SavedReply;
    const other = (await create(token, { title: 'Precios', text: 'Consulta: 40 €' })).body.data as SavedReply;
    const before = await savedReplyItems(userId);

    const dup = await create(token, { title: 'CITA MÉDICA', text: 'Otra' });
    const rename = await api('PUT', `/api/saved-replies/${other._id}`, { token, body: { title: 'cita médica', text: 'Otra' } });

    for (const res of [dup, rename]) {
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ success: false, message: savedReplyMessages.duplicateTitle });
    }
    expect(await savedReplyItems(userId)).toEqual(before);
    // Renaming a reply to its own title in another case is fine.
    const recased = await api<SavedReply>('PUT', `/api/saved-replies/${first._id}`, { token, body: { title: 'CITA MÉDICA', text: 'Confirmada' } });
    expect(recased.status).toBe(200);
    expect(recased.body.data?.title).toBe('CITA MÉDICA');
    // Another user may use the same title.
    expect((await create((await owner()).token, { title: 'Cita médica', text: 'Hola' })).status).toBe(201);
  });

  it(`caps a user at ${SAVED_REPLY_LIMITS.perUser} replies with a 400; deleting one frees a place`, async () => {
    const { token, userId } = await owner();
    const made: SavedReply[] = [];
    for (let i = 0; i < SAVED_REPLY_LIMITS.perUser; i++) {
      const res = await create(token, { title: `Respuesta ${i}`, text: `Texto ${i}` });
      expect(res.status, res.body.message).toBe(201);
      made.push(res.body.data as SavedReply);
    }

    const over = await create(token, { title: 'Una más', text: 'No cabe' });

    expect(over.status).toBe(400);
    expect(over.body.message).toBe(savedReplyMessages.tooMany);
    expect(await list(token)).toHaveLength(SAVED_REPLY_LIMITS.perUser);
    expect((await savedReplyItems(userId)).some((i) => i.title === 'Una más' || String(i.sk).endsWith('#una más'))).toBe(false);
    await api('DELETE', `/api/saved-replies/${made[0]?._id}`, { token });
    expect((await create(token, { title: 'Una más', text: 'Ahora sí' })).status).toBe(201);
  }, 120_000);

  it("answers 404 for another user's reply on GET, PUT and DELETE, and leaves it untouched", async () => {
    const a = await owner();
    const b = await owner();
    const ofA = (await create(a.token, { title: 'Dirección', text: 'Calle Mayor 1, Logroño' })).body.data as SavedReply;

    for (const [method, path, body] of [
      ['GET', `/api/saved-replies/${ofA._id}`, undefined],
      ['PUT', `/api/saved-replies/${ofA._id}`, { title: 'Robada', text: 'x' }],
      ['DELETE', `/api/saved-replies/${ofA._id}`, undefined],
      ['GET', '/api/saved-replies/not-an-id', undefined],
      ['DELETE', `/api/saved-replies/${'A'.repeat(5_000)}`, undefined],
    ] as const) {
      const res = await api(method, path, { token: b.token, body });
      expect(res.status, `${method} ${path.slice(0, 60)}`).toBe(404);
      expect(res.body.message).toBe(savedReplyMessages.notFound);
    }

    expect(await list(b.token)).toEqual([]);
    expect(await list(a.token)).toEqual([ofA]);
  });
});
