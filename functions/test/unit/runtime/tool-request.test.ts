import { describe, expect, it } from 'vitest';
import { buildToolRequest } from '../../../src/adapters/http-tools/request.js';

describe('buildToolRequest', () => {
  it.each(['GET', 'DELETE'] as const)('%s: arguments as a query string, objects and arrays JSON-encoded, no body', (method) => {
    const req = buildToolRequest(
      { endpoint: 'https://shop.example.com/orders?v=2', method },
      { order_id: 'A 100&x', qty: 3, gift: false, tags: ['a', 'b'], who: { name: 'Ana' }, nothing: null },
      null,
    );

    expect(req.method).toBe(method);
    expect(req.body).toBeUndefined();
    const url = new URL(req.url);
    expect(url.origin + url.pathname).toBe('https://shop.example.com/orders');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      v: '2',
      order_id: 'A 100&x',
      qty: '3',
      gift: 'false',
      tags: '["a","b"]',
      who: '{"name":"Ana"}',
    });
    expect(req.headers['content-type']).toBeUndefined();
  });

  it.each(['POST', 'PUT', 'PATCH'] as const)('%s: arguments as a JSON body', (method) => {
    const req = buildToolRequest({ endpoint: 'https://api.example.com/book', method }, { date: '2026-05-01', guests: 2, extras: ['cake'] }, null);

    expect(req.url).toBe('https://api.example.com/book');
    expect(req.headers['content-type']).toBe('application/json');
    expect(JSON.parse(req.body!)).toEqual({ date: '2026-05-01', guests: 2, extras: ['cake'] });
  });

  it('attaches the tool header', () => {
    const req = buildToolRequest({ endpoint: 'https://api.example.com/x', method: 'GET' }, {}, { key: 'X-Api-Key', value: 's3cret' });
    expect(req.headers['x-api-key']).toBe('s3cret');
  });

  it('fills {name} placeholders of the endpoint from the arguments (encoded) and does not send them again', () => {
    const get = buildToolRequest({ endpoint: 'https://shop.example.com/orders/{order_id}/status', method: 'GET' }, { order_id: 'A/1 2', verbose: true }, null);
    expect(get.url).toBe('https://shop.example.com/orders/A%2F1%202/status?verbose=true');

    const post = buildToolRequest({ endpoint: 'https://shop.example.com/orders/{order_id}', method: 'POST' }, { order_id: 'A1', note: 'hi' }, null);
    expect(post.url).toBe('https://shop.example.com/orders/A1');
    expect(JSON.parse(post.body!)).toEqual({ note: 'hi' });
  });
});
