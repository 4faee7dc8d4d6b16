/**
 * The Create/Edit Tool form (SPEC §2 Custom Tools, §3 Agent tool, §5 Tool): the form's values, the
 * request they become, and validation with the contract's `toolRequest`, so every message is the
 * server's own. Parameters are rows in the form and a name → {type, description} map (+ `required`)
 * in the request.
 */
import {
  MASKED_SECRET,
  agentMessages,
  normaliseToolName,
  toolRequest,
  type AgentTool,
  type ToolInput,
  type ToolMethod,
  type ToolParameterType,
} from '@agentdesk/functions/contract';

export interface ToolParameterRow {
  name: string;
  type: ToolParameterType;
  description: string;
  required: boolean;
  /** Saved with the tool already: its name is read-only (SPEC §2). */
  locked: boolean;
}

export interface ToolFormValues {
  /** What the user typed; saved as normaliseToolName(name). */
  name: string;
  description: string;
  endpoint: string;
  method: ToolMethod;
  headerKey: string;
  /** '' while editing a tool with a stored value means "keep it" (shown as a '***' placeholder). */
  headerValue: string;
  parameters: ToolParameterRow[];
}

/** Not one of the contract's texts: two rows with one name would collapse into one parameter. */
export const DUPLICATE_PARAMETER = 'duplicateParameter';

export const EMPTY_TOOL_FORM: ToolFormValues = {
  name: '',
  description: '',
  endpoint: '',
  method: 'GET',
  headerKey: '',
  headerValue: '',
  parameters: [],
};

/**
 * The name field's live normalisation: like normaliseToolName but keeps a trailing '_' so words
 * can still be typed ('book ' → 'book_' → 'book_a…'); the saved name is normaliseToolName's.
 */
export function liveToolName(input: string): string {
  return input
    .toLowerCase()
    .replace(/[^a-z0-9_]/g, '_')
    .replace(/_+/g, '_')
    .replace(/^_+/, '');
}

export const emptyParameter = (): ToolParameterRow => ({ name: '', type: 'string', description: '', required: false, locked: false });

/** A saved tool as form values; a stored header value stays hidden (the field starts empty). */
export function toolToForm(tool: AgentTool): ToolFormValues {
  return {
    name: tool.name,
    description: tool.description,
    endpoint: tool.endpoint,
    method: tool.method,
    headerKey: tool.headerKey,
    headerValue: '',
    parameters: Object.entries(tool.properties).map(([name, p]) => ({
      name,
      type: p.type,
      description: p.description,
      required: tool.required.includes(name),
      locked: true,
    })),
  };
}

/** Whether the tool being edited keeps a header value the user cannot see. */
export function hasStoredHeaderValue(tool: AgentTool | null): boolean {
  return Boolean(tool && tool.headerValue === MASKED_SECRET);
}

/** The request body before validation. An untouched hidden header value is sent as '***' (keep). */
export function formToRequest(values: ToolFormValues, editing: AgentTool | null): Record<string, unknown> {
  const headerKey = values.headerKey.trim();
  let headerValue = values.headerValue;
  if (headerKey === '') headerValue = values.headerValue.trim() === '' ? '' : values.headerValue;
  else if (headerValue === '' && hasStoredHeaderValue(editing)) headerValue = MASKED_SECRET;
  const properties: Record<string, { type: ToolParameterType; description: string }> = {};
  for (const p of values.parameters) properties[p.name.trim()] = { type: p.type, description: p.description };
  return {
    name: normaliseToolName(values.name),
    description: values.description,
    type: 'http_request',
    endpoint: values.endpoint,
    method: values.method,
    headerKey,
    headerValue,
    properties,
    required: values.parameters.filter((p) => p.required).map((p) => p.name.trim()),
  };
}

/** The contract's parameter name rule (checked per row here, so the message lands on the row). */
const PARAMETER_NAME = /^[A-Za-z][A-Za-z0-9_]*$/;

export type ToolFormErrors = Record<string, string>;

/**
 * Validates the form with the contract's rules. Errors are keyed by form path ('name',
 * 'parameters.2.description', 'parameters' for the list as a whole); messages are English texts
 * of the contract (or DUPLICATE_PARAMETER).
 */
export function validateToolForm(values: ToolFormValues, editing: AgentTool | null): { input: ToolInput; errors: null } | { input: null; errors: ToolFormErrors } {
  const errors: ToolFormErrors = {};
  // The request's property key of each row: its name, or a stand-in for a blank or repeated one
  // (already reported), so the row's own checks (type, description) still run and land on it.
  const rowByKey = new Map<string, number>();
  values.parameters.forEach((p, i) => {
    const name = p.name.trim();
    let ok = true;
    if (!PARAMETER_NAME.test(name)) {
      errors[`parameters.${i}.name`] = agentMessages.parameterNameInvalid;
      ok = false;
    } else if (rowByKey.has(name)) {
      errors[`parameters.${i}.name`] = DUPLICATE_PARAMETER;
      ok = false;
    }
    rowByKey.set(ok ? name : `Row${i}_standin`, i);
  });
  const request = formToRequest(values, editing);
  request.properties = Object.fromEntries(
    [...rowByKey].map(([key, i]) => {
      const p = values.parameters[i] as ToolParameterRow;
      return [key, { type: p.type, description: p.description }];
    }),
  );

  const parsed = toolRequest.safeParse(request);
  if (parsed.success && Object.keys(errors).length === 0) return { input: parsed.data, errors: null };

  for (const issue of parsed.success ? [] : parsed.error.issues) {
    const [head, key, field] = issue.path;
    let path: string;
    let message = issue.message;
    if (head === 'properties' && typeof key === 'string' && rowByKey.has(key)) {
      const row = rowByKey.get(key) as number;
      if (issue.code === 'invalid_key') {
        path = `parameters.${row}.name`;
        message = issue.issues[0]?.message ?? agentMessages.parameterNameInvalid;
      } else {
        path = `parameters.${row}.${field === 'type' ? 'type' : 'description'}`;
      }
    } else if (head === 'properties' || head === 'required') {
      path = 'parameters';
    } else if (typeof head === 'string') {
      path = head;
    } else {
      path = 'name';
    }
    errors[path] ??= message;
  }
  return { input: null, errors };
}
