/**
 * The 'View Examples' tools (SPEC §2 Custom Tools): realistic HTTP tools that prefill the form.
 * Names, methods, endpoints and parameter names are fixed; the descriptions (what the model reads)
 * come from the strings, so a Spanish user gets Spanish descriptions.
 */
import type { TFunction } from 'i18next';
import type { ToolMethod, ToolParameterType } from '@agentdesk/functions/contract';
import type { ToolFormValues } from './toolForm';

interface ExampleParameter {
  name: string;
  type: ToolParameterType;
  required: boolean;
}

interface ToolExample {
  /** The strings' key under agentTabs.tools.examples. */
  id: 'bookAppointment' | 'orderStatus' | 'priceLookup';
  name: string;
  method: ToolMethod;
  endpoint: string;
  headerKey: string;
  parameters: ExampleParameter[];
}

export const TOOL_EXAMPLES: readonly ToolExample[] = [
  {
    id: 'bookAppointment',
    name: 'book_appointment',
    method: 'POST',
    endpoint: 'https://api.example.com/appointments',
    headerKey: 'X-API-Key',
    parameters: [
      { name: 'date', type: 'string', required: true },
      { name: 'time', type: 'string', required: true },
      { name: 'name', type: 'string', required: true },
      { name: 'phone', type: 'string', required: true },
    ],
  },
  {
    id: 'orderStatus',
    name: 'check_order_status',
    method: 'GET',
    endpoint: 'https://api.example.com/orders/status',
    headerKey: 'Authorization',
    parameters: [{ name: 'order_id', type: 'string', required: true }],
  },
  {
    id: 'priceLookup',
    name: 'get_price',
    method: 'GET',
    endpoint: 'https://api.example.com/prices',
    headerKey: '',
    parameters: [{ name: 'service', type: 'string', required: true }],
  },
];

/** The example as new-tool form values (nothing locked, no header value). */
export function exampleToForm(example: ToolExample, t: TFunction): ToolFormValues {
  const base = `agentTabs.tools.examples.${example.id}`;
  return {
    name: example.name,
    description: t(`${base}.description`),
    endpoint: example.endpoint,
    method: example.method,
    headerKey: example.headerKey,
    headerValue: '',
    parameters: example.parameters.map((p) => ({
      name: p.name,
      type: p.type,
      description: t(`${base}.params.${p.name}`),
      required: p.required,
      locked: false,
    })),
  };
}

export type { ToolExample };
