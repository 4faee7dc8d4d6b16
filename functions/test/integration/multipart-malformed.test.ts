/**
 * Malformed multipart bodies on the two routes that read multipart (issue 28): a file part of an
 * unexpected name followed by the end of the input made busboy destroy the skipped file stream
 * with "Unexpected end of form", nobody listened, and the process died after answering. Each is
 * now a 400 that says what is wrong, and the stack still serves afterwards. (The route fuzzing
 * sends many more malformed bodies to every multipart route: fuzz-routes.test.ts.)
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { multipartMessages } from '../../src/http/multipart.js';
import { api } from '../support/api.js';
import { agentsUser, createAgent, type AgentsUser } from '../support/agents-api.js';
import { send, stillServing } from '../support/fuzz.js';

/** The issue's body, byte for byte. */
const ISSUE_BODY = '--zz\r\nContent-Disposition: form-data; name="x"; filename="a.png"\r\n\r\nxx\r\n';

let user: AgentsUser;
let agentId: string;

beforeAll(async () => {
  user = await agentsUser();
  agentId = (await createAgent(user))._id;
});

describe.each([
  ['POST /api/user/avatar', () => '/api/user/avatar'],
  ['POST /api/agents/{id}/files', () => `/api/agents/${agentId}/files`],
])('%s with a malformed multipart body', (_route, path) => {
  it('answers 400 with a clear message, and the process keeps serving', async () => {
    const res = await send({
      method: 'POST',
      target: path(),
      headers: { authorization: `Bearer ${user.token}`, 'content-type': 'multipart/form-data; boundary=zz' },
      body: ISSUE_BODY,
    });

    expect(res.status).toBe(400);
    expect(JSON.parse(res.text)).toMatchObject({ success: false, message: multipartMessages.malformed });
    // The gateway itself, then a handler with DynamoDB behind it.
    expect(await stillServing()).toBe(true);
    expect((await api('GET', '/api/me', { token: user.token })).status).toBe(200);
  });

  it('answers 400 "Request must be multipart/form-data" without a boundary', async () => {
    const res = await send({
      method: 'POST',
      target: path(),
      headers: { authorization: `Bearer ${user.token}`, 'content-type': 'multipart/form-data' },
      body: `${ISSUE_BODY}--zz--\r\n`,
    });

    expect(res.status).toBe(400);
    expect(JSON.parse(res.text)).toMatchObject({ success: false, message: multipartMessages.notMultipart });
    expect(await stillServing()).toBe(true);
  });
});
