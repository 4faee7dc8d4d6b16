import { describe, expect, it } from 'vitest';
import { agentMessages, type AgentTool } from '@agentdesk/functions/contract';
import { DUPLICATE_PARAMETER, EMPTY_TOOL_FORM, formToRequest, liveToolName, toolToForm, validateToolForm, type ToolFormValues } from './toolForm';
import { TOOL_EXAMPLES, exampleToForm } from './toolExamples';

const valid: ToolFormValues = {
  ...EMPTY_TOOL_FORM,
  name: 'Check Order Status!',
  description: 'Looks up an order',
  endpoint: 'https://api.example.com/orders',
  parameters: [
    { name: 'order_id', type: 'string', description: 'The order number', required: true, locked: false },
    { name: 'verbose', type: 'boolean', description: 'More detail', required: false, locked: false },
  ],
};

const saved: AgentTool = {
  _id: 't1',
  name: 'check_order_status',
  description: 'Looks up an order',
  type: 'http_request',
  properties: { order_id: { type: 'string', description: 'The order number' } },
  required: ['order_id'],
  endpoint: 'https://api.example.com/orders',
  method: 'GET',
  headerKey: 'X-API-Key',
  headerValue: '***',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

describe('tool form', () => {
  it('normalises the name as typed but keeps a trailing underscore until saved', () => {
    expect(liveToolName('Book ')).toBe('book_');
    expect(liveToolName('  Book  An--Appointment')).toBe('book_an_appointment');
    expect(formToRequest({ ...valid, name: 'book_' }, null).name).toBe('book');
  });

  it('turns parameter rows into properties and required names', () => {
    const result = validateToolForm(valid, null);
    expect(result.errors).toBeNull();
    expect(result.input).toEqual({
      name: 'check_order_status',
      description: 'Looks up an order',
      type: 'http_request',
      endpoint: 'https://api.example.com/orders',
      method: 'GET',
      headerKey: '',
      headerValue: '',
      properties: {
        order_id: { type: 'string', description: 'The order number' },
        verbose: { type: 'boolean', description: 'More detail' },
      },
      required: ['order_id'],
    });
  });

  it('reports the contract messages on the form fields', () => {
    const result = validateToolForm(
      {
        ...valid,
        name: '',
        description: ' ',
        endpoint: 'ftp://files.example.com',
        headerValue: 'secret',
        parameters: [
          { name: '1st', type: 'string', description: 'x', required: false, locked: false },
          { name: 'ok', type: 'string', description: '', required: false, locked: false },
          { name: 'ok', type: 'number', description: 'again', required: false, locked: false },
          { name: '', type: 'string', description: 'nameless', required: false, locked: false },
        ],
      },
      null,
    );
    expect(result.errors).toEqual({
      name: agentMessages.toolNameRequired,
      description: agentMessages.toolDescriptionRequired,
      endpoint: agentMessages.endpointInvalid,
      headerValue: agentMessages.headerValueWithoutKey,
      'parameters.0.name': agentMessages.parameterNameInvalid,
      'parameters.1.description': agentMessages.parameterDescriptionRequired,
      'parameters.2.name': DUPLICATE_PARAMETER,
      'parameters.3.name': agentMessages.parameterNameInvalid,
    });
  });

  it('asks for a header key when a header value is given', () => {
    expect(validateToolForm({ ...valid, headerValue: 'secret' }, null).errors).toEqual({ headerValue: agentMessages.headerValueWithoutKey });
  });

  it('rejects the built-in tool names', () => {
    expect(validateToolForm({ ...valid, name: 'search_knowledge' }, null).errors).toEqual({ name: agentMessages.toolNameReserved });
  });

  it('edits a saved tool: parameter names locked, the stored header value hidden and kept unless replaced', () => {
    const form = toolToForm(saved);
    expect(form.headerValue).toBe('');
    expect(form.parameters).toEqual([{ name: 'order_id', type: 'string', description: 'The order number', required: true, locked: true }]);
    expect(formToRequest(form, saved).headerValue).toBe('***');
    expect(formToRequest({ ...form, headerValue: 'new-secret' }, saved).headerValue).toBe('new-secret');
    // Without a header key there is no header, so no value to keep.
    expect(formToRequest({ ...form, headerKey: '' }, saved).headerValue).toBe('');
  });

  it('offers the three examples, each valid as it is', () => {
    const t = ((key: string) => `text for ${key}`) as never;
    expect(TOOL_EXAMPLES.map((e) => [e.name, e.method, e.parameters.map((p) => p.name)])).toEqual([
      ['book_appointment', 'POST', ['date', 'time', 'name', 'phone']],
      ['check_order_status', 'GET', ['order_id']],
      ['get_price', 'GET', ['service']],
    ]);
    for (const example of TOOL_EXAMPLES) expect(validateToolForm(exampleToForm(example, t), null).errors).toBeNull();
  });
});
