/**
 * Agent web URLs (add one per line, skip known links, refresh, delete with chunks) and the
 * agent delete cascade (children, chunk partition, stored documents) through the local gateway.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Agent, AgentUrl } from '../../src/contract/agents.js';
import { getItem } from '../support/api.js';
import {
  addUrls,
  agentItems,
  agentsUser,
  call,
  chunkKeys,
  createAgent,
  createTool,
  eventually,
  objectExists,
  seedChunks,
  sentTo,
  uploadDirect,
  uploadMultipart,
  type AgentsUser,
} from '../support/agents-api.js';

let owner: AgentsUser;
let stranger: AgentsUser;

beforeAll(async () => {
  [owner, stranger] = await Promise.all([agentsUser(), agentsUser()]);
});

describe('web URLs', () => {
  it('adds one URL per line: trimmed, blank lines dropped, pending, one scrape job each', async () => {
    const agent = await createAgent(owner);
    const sentBefore = await sentTo('url-scrape');

    const res = await call<AgentUrl[]>(owner, 'POST', `/api/agents/${agent._id}/urls`, {
      urls: '  https://shop.example.com/faq  \n\n   \r\nhttp://shop.example.com/prices\n',
    });

    expect(res.status).toBe(201);
    expect(res.body.message).toBe('2 URLs added');
    expect(res.body.data!.map((u) => [u.link, u.status])).toEqual([
      ['https://shop.example.com/faq', 'pending'],
      ['http://shop.example.com/prices', 'pending'],
    ]);
    expect(await sentTo('url-scrape')).toBeGreaterThanOrEqual(sentBefore + 2);
    // The url-scrape worker takes them from there (these hosts do not resolve: failed, with a reason).
    const processed = await eventually(async () => {
      const urls = (await call<AgentUrl[]>(owner, 'GET', `/api/agents/${agent._id}/urls`)).body.data!;
      return urls.every((u) => u.status !== 'pending') ? urls : null;
    }, 20_000);
    expect(processed.map((u) => u.status).every((s) => s === 'completed' || s === 'failed')).toBe(true);
    const listed = await call<AgentUrl[]>(owner, 'GET', `/api/agents/${agent._id}/urls`);
    expect(listed.body.data!.map((u) => u.link)).toEqual(['https://shop.example.com/faq', 'http://shop.example.com/prices']);
    expect((await call<Agent>(owner, 'GET', `/api/agents/${agent._id}`)).body.data!.urls.map((u) => u._id)).toEqual(res.body.data!.map((u) => u._id));
  });

  it('skips links the agent already has (and repeats within the request)', async () => {
    const agent = await createAgent(owner);
    await addUrls(owner, agent._id, ['https://a.example.com/']);

    const res = await call<AgentUrl[]>(owner, 'POST', `/api/agents/${agent._id}/urls`, {
      urls: ['https://a.example.com/', 'https://b.example.com/', 'https://b.example.com/'],
    });

    expect(res.body.message).toBe('1 URL added');
    expect(res.body.data!.map((u) => u.link)).toEqual(['https://b.example.com/']);
    expect((await call<AgentUrl[]>(owner, 'GET', `/api/agents/${agent._id}/urls`)).body.data!).toHaveLength(2);
  });

  it.each([
    [{ urls: 'https://ok.example.com\nnot a url' }, 'Invalid URL: not a url'],
    [{ urls: 'ftp://files.example.com/a' }, 'Invalid URL: ftp://files.example.com/a'],
    [{ urls: '\n  \n' }, 'Enter at least one URL'],
    [{}, 'Enter at least one URL'],
    [{ urls: Array.from({ length: 21 }, (_, i) => `https://example.com/${i}`) }, 'Add at most 20 URLs at a time'],
  ])('%j → 400 %s (nothing added)', async (body, message) => {
    const agent = await createAgent(owner);

    const res = await call(owner, 'POST', `/api/agents/${agent._id}/urls`, body);

    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, message });
    expect((await call<AgentUrl[]>(owner, 'GET', `/api/agents/${agent._id}/urls`)).body.data).toEqual([]);
  });

  it('refreshes a URL (optionally with a corrected link): pending again, a refresh job queued', async () => {
    const agent = await createAgent(owner);
    const [url] = await addUrls(owner, agent._id, 'https://typo.example.com/pricess');
    const sentBefore = await sentTo('url-scrape');

    const res = await call<AgentUrl>(owner, 'PUT', `/api/agents/${agent._id}/urls/${url!._id}`, { link: ' https://typo.example.com/prices ' });

    expect(res.status).toBe(200);
    expect(res.body.message).toBe('URL refresh started');
    expect(res.body.data).toMatchObject({ _id: url!._id, link: 'https://typo.example.com/prices', status: 'pending' });
    expect(await sentTo('url-scrape')).toBeGreaterThan(sentBefore);
    expect((await getItem(`USER#${owner.userId}`, `AGENT#${agent._id}#URL#${url!._id}`))?.link).toBe('https://typo.example.com/prices');

    const plain = await call<AgentUrl>(owner, 'PUT', `/api/agents/${agent._id}/urls/${url!._id}`, {});
    expect(plain.body.data).toMatchObject({ link: 'https://typo.example.com/prices', status: 'pending' });

    const bad = await call(owner, 'PUT', `/api/agents/${agent._id}/urls/${url!._id}`, { link: 'javascript:alert(1)' });
    expect([bad.status, bad.body.message]).toEqual([400, 'URL must be an http(s) URL']);
  });

  it('deletes a URL with its chunks', async () => {
    const agent = await createAgent(owner);
    const [keep, gone] = await addUrls(owner, agent._id, ['https://keep.example.com/', 'https://gone.example.com/']);
    // Another source's chunks under an id no worker processes, so only the delete can touch them.
    const otherSource = '01ARZ3NDEKTSV4RRFFQ69G5FAV';
    await seedChunks(owner.userId, agent._id, 'url', otherSource);
    await seedChunks(owner.userId, agent._id, 'url', gone!._id);

    const res = await call(owner, 'DELETE', `/api/agents/${agent._id}/urls/${gone!._id}`);

    expect([res.status, res.body.message]).toEqual([200, 'URL deleted successfully']);
    expect((await call<AgentUrl[]>(owner, 'GET', `/api/agents/${agent._id}/urls`)).body.data!.map((u) => u._id)).toEqual([keep!._id]);
    const chunks = await chunkKeys(owner.userId, agent._id);
    expect(chunks.filter((sk) => sk.startsWith(`url#${gone!._id}#`))).toEqual([]);
    expect(chunks.filter((sk) => sk.startsWith(`url#${otherSource}#`))).toHaveLength(2);
  });

  it('answers 404 for a missing URL and for another user\'s URL', async () => {
    const agent = await createAgent(owner);
    const [url] = await addUrls(owner, agent._id, 'https://private.example.com/');

    const missing = await call(owner, 'DELETE', `/api/agents/${agent._id}/urls/01ARZ3NDEKTSV4RRFFQ69G5FAV`);
    const missingRefresh = await call(owner, 'PUT', `/api/agents/${agent._id}/urls/01ARZ3NDEKTSV4RRFFQ69G5FAV`, {});
    const theirs = await call(stranger, 'DELETE', `/api/agents/${agent._id}/urls/${url!._id}`);
    const theirRefresh = await call(stranger, 'PUT', `/api/agents/${agent._id}/urls/${url!._id}`, {});

    expect([missing.status, missing.body.message]).toEqual([404, 'URL not found']);
    expect([missingRefresh.status, missingRefresh.body.message]).toEqual([404, 'URL not found']);
    expect([theirs.status, theirs.body.message]).toEqual([404, 'Agent not found']);
    expect([theirRefresh.status, theirRefresh.body.message]).toEqual([404, 'Agent not found']);
    expect((await call<AgentUrl[]>(owner, 'GET', `/api/agents/${agent._id}/urls`)).body.data).toHaveLength(1);
  });
});

describe('deleting an agent', () => {
  it('removes its files, URLs, tools, chunk partition and stored documents, and nothing of other agents', async () => {
    const agent = await createAgent(owner, 'Doomed');
    const other = await createAgent(owner, 'Survivor');
    const { ticket } = await uploadDirect(owner, agent._id, { name: 'manual.txt', type: 'text/plain', bytes: 'manual' });
    const [small] = (await uploadMultipart(owner, agent._id, [{ name: 'small.txt', type: 'text/plain', bytes: 'small' }])).body.data!;
    const [url] = await addUrls(owner, agent._id, 'https://doomed.example.com/');
    await createTool(owner, agent._id);
    await uploadMultipart(owner, other._id, [{ name: 'other.txt', type: 'text/plain', bytes: 'other' }]);
    const items = await agentItems(owner.userId, agent._id);
    const keys = items.filter((i) => i.entity === 'agentFile').map((i) => String(i.s3Key));
    const otherKey = String((await agentItems(owner.userId, other._id)).find((i) => i.entity === 'agentFile')?.s3Key);
    expect(items.map((i) => i.entity).sort()).toEqual(['agent', 'agentFile', 'agentFile', 'agentTool', 'agentUrl']);
    expect(keys).toHaveLength(2);
    await seedChunks(owner.userId, agent._id, 'file', ticket.file._id);
    await seedChunks(owner.userId, agent._id, 'file', small!._id);
    await seedChunks(owner.userId, agent._id, 'url', url!._id);
    await seedChunks(owner.userId, other._id, 'file', '01ARZ3NDEKTSV4RRFFQ69G5FAV');

    const res = await call(owner, 'DELETE', `/api/agents/${agent._id}`);

    expect([res.status, res.body.message]).toEqual([200, 'Agent deleted successfully']);
    expect(await agentItems(owner.userId, agent._id)).toEqual([]);
    expect(await chunkKeys(owner.userId, agent._id)).toEqual([]);
    for (const key of keys) expect(await objectExists(key)).toBe(false);
    expect((await call(owner, 'GET', `/api/files/${small!._id}`)).status).toBe(404);
    // The other agent keeps everything.
    expect((await agentItems(owner.userId, other._id)).length).toBe(2);
    expect((await chunkKeys(owner.userId, other._id)).filter((sk) => sk.startsWith('file#01ARZ3NDEKTSV4RRFFQ69G5FAV#'))).toHaveLength(2);
    expect(await objectExists(otherKey)).toBe(true);
    expect((await call<Agent[]>(owner, 'GET', '/api/agents')).body.data!.some((a) => a._id === agent._id)).toBe(false);
  });

  it('refuses another user\'s agent and keeps it whole', async () => {
    const agent = await createAgent(owner);
    await addUrls(owner, agent._id, 'https://mine.example.com/');

    const res = await call(stranger, 'DELETE', `/api/agents/${agent._id}`);

    expect([res.status, res.body.message]).toEqual([404, 'Agent not found']);
    expect(await agentItems(owner.userId, agent._id)).toHaveLength(2);
  });
});
