import { describe, expect, it } from 'vitest';
import { checkToolArguments, customToolSchema, parseToolArguments, toolSpecs } from '../../../src/domain/agents/runtime/tools.js';
import { tool } from './fakes.js';

describe('tool schemas for the model', () => {
  it('turns a custom tool into a JSON Schema with its properties, required list and no extra properties', () => {
    const t = tool({
      properties: {
        date: { type: 'string', description: 'Day, YYYY-MM-DD' },
        guests: { type: 'number', description: 'How many people' },
        vip: { type: 'boolean', description: 'VIP table' },
        extras: { type: 'array', description: 'Extras to add' },
        customer: { type: 'object', description: 'Name and phone' },
      },
      required: ['date', 'guests'],
    });

    expect(customToolSchema(t)).toEqual({
      type: 'object',
      properties: {
        date: { type: 'string', description: 'Day, YYYY-MM-DD' },
        guests: { type: 'number', description: 'How many people' },
        vip: { type: 'boolean', description: 'VIP table' },
        extras: { type: 'array', description: 'Extras to add', items: { type: ['string', 'number', 'boolean', 'object'] } },
        customer: { type: 'object', description: 'Name and phone' },
      },
      required: ['date', 'guests'],
      additionalProperties: false,
    });
  });

  it('offers every custom tool plus search_knowledge and escalate_to_human', () => {
    const specs = toolSpecs([tool({ name: 'book_table' }), tool({ name: 'check_order' })]);

    expect(specs.map((s) => s.name)).toEqual(['book_table', 'check_order', 'search_knowledge', 'escalate_to_human']);
    expect(specs[0]!.description).toBe('Look up the status of an order');
    expect(specs[2]!.parameters).toMatchObject({ required: ['query'], properties: { query: { type: 'string' } } });
    expect(specs[3]!.parameters).toMatchObject({ required: ['reason'], properties: { reason: { type: 'string' } } });
  });

  it('an agent without tools still gets the two built-ins', () => {
    expect(toolSpecs([]).map((s) => s.name)).toEqual(['search_knowledge', 'escalate_to_human']);
  });
});

describe('parseToolArguments', () => {
  it.each([
    ['{"a":1}', { a: 1 }],
    ['', {}],
    ['  ', {}],
  ])('%j → object', (text, args) => {
    expect(parseToolArguments(text)).toEqual({ ok: true, args });
  });

  it.each(['{"a":', 'not json', '[1,2]', '"text"', 'null', '42'])('%j → an error text for the model', (text) => {
    const parsed = parseToolArguments(text);
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.error).toMatch(/^Invalid arguments/);
  });
});

describe('checkToolArguments', () => {
  const t = tool({
    properties: {
      order_id: { type: 'string', description: 'x' },
      qty: { type: 'number', description: 'x' },
      gift: { type: 'boolean', description: 'x' },
      tags: { type: 'array', description: 'x' },
    },
    required: ['order_id', 'qty'],
  });

  it('names the missing required parameters (blank strings count as missing)', () => {
    expect(checkToolArguments(t, { order_id: '  ' })).toEqual({
      ok: false,
      error: expect.stringContaining('Missing required parameters: order_id, qty') as string,
    });
    expect(checkToolArguments(t, { qty: 1 })).toEqual({ ok: false, error: expect.stringContaining('Missing required parameter: order_id') as string });
  });

  it('rejects a wrong type, accepts numbers and booleans written as text, drops unknown parameters', () => {
    expect(checkToolArguments(t, { order_id: 'A1', qty: 'two' })).toEqual({ ok: false, error: 'Invalid parameter qty: it must be a number.' });
    expect(checkToolArguments(t, { order_id: 'A1', qty: 1, tags: 'x' })).toEqual({ ok: false, error: 'Invalid parameter tags: it must be an array.' });
    expect(checkToolArguments(t, { order_id: 'A1', qty: ' 2 ', gift: 'true', hack: 'drop me' })).toEqual({
      ok: true,
      args: { order_id: 'A1', qty: 2, gift: true },
    });
  });
});
