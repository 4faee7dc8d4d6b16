/**
 * Runs an agent's custom HTTP tools: arguments checked against the tool's parameters, the header
 * value opened from its sealed form, the request made through the outbound guard (public
 * addresses only, re-checked on redirects; timeout; 100 KB response cap). Every failure becomes a
 * clear text for the model (and ok:false in what the reply shows); nothing is thrown.
 */
import type { ToolRecord } from '../../domain/agents/ports.js';
import type { ToolCallOptions, ToolExecutor, ToolOutcome } from '../../domain/agents/runtime/ports.js';
import { checkToolArguments } from '../../domain/agents/runtime/tools.js';
import type { SecretBox } from '../../domain/secrets/ports.js';
import {
  OutboundBlockedError,
  OutboundNetworkError,
  OutboundTimeoutError,
  OutboundTooLargeError,
  type guardedFetch,
} from '../outbound/guarded-fetch.js';
import { buildToolRequest } from './request.js';

export const TOOL_RESPONSE_MAX_BYTES = 100 * 1024;

export interface HttpToolExecutorDeps {
  fetch: typeof guardedFetch;
  secrets: SecretBox;
  /** Per call (config TOOL_TIMEOUT_MS, 10 s). */
  timeoutMs: number;
  maxBytes?: number;
  onError?: (message: string, error: unknown) => void;
}

/** "10 seconds", "1 second", "1.5 seconds". */
export function secondsText(ms: number): string {
  const s = Math.round(ms / 100) / 10;
  return `${s} second${s === 1 ? '' : 's'}`;
}

/** Text types are given to the model; anything else is described, not dumped. */
const isTextual = (contentType: string | undefined) =>
  !contentType || /^(text\/|application\/([\w.+-]*\+)?(json|xml|javascript|x-www-form-urlencoded))|^application\/(problem\+json|ld\+json)/i.test(contentType.trim());

export class HttpToolExecutor implements ToolExecutor {
  constructor(private readonly deps: HttpToolExecutorDeps) {}

  async execute(tool: ToolRecord, rawArgs: Record<string, unknown>, options?: ToolCallOptions): Promise<ToolOutcome> {
    const checked = checkToolArguments(tool, rawArgs);
    if (!checked.ok) return { ok: false, result: `The tool was not called. ${checked.error}` };

    let header: { key: string; value: string } | null = null;
    if (tool.headerKey !== '' && tool.sealedHeaderValue !== '') {
      try {
        header = { key: tool.headerKey, value: await this.deps.secrets.open(tool.sealedHeaderValue) };
      } catch (error) {
        this.deps.onError?.('Opening a tool header value failed', error);
        return { ok: false, result: 'The tool could not be called: its header value could not be read. Ask the owner to save the tool again.' };
      }
    } else if (tool.headerKey !== '') {
      header = { key: tool.headerKey, value: '' };
    }

    let request;
    try {
      request = buildToolRequest(tool, checked.args, header);
    } catch {
      return { ok: false, result: 'The tool could not be called: its endpoint is not a valid URL.' };
    }

    const timeoutMs = Math.max(1, Math.min(this.deps.timeoutMs, options?.timeoutMs ?? Infinity));
    const maxBytes = this.deps.maxBytes ?? TOOL_RESPONSE_MAX_BYTES;
    try {
      const res = await this.deps.fetch(request.url, {
        method: request.method,
        headers: request.headers,
        ...(request.body !== undefined ? { body: request.body } : {}),
        timeoutMs,
        maxBytes,
        // The tool's secret header is meant for its endpoint only, never for another host it redirects to.
        ...(header ? { originBoundHeaders: [header.key] } : {}),
      });
      const contentType = Object.entries(res.headers).find(([k]) => k.toLowerCase() === 'content-type')?.[1];
      let body = isTextual(contentType)
        ? res.body.toString('utf8')
        : `[${res.body.length} bytes of ${contentType} content, not shown]`;
      if (res.truncated) body += `\n[The response was cut at ${Math.round(maxBytes / 1024)} KB]`;
      return { ok: res.status >= 200 && res.status < 400, status: res.status, result: `HTTP ${res.status}\n${body}` };
    } catch (error) {
      if (error instanceof OutboundBlockedError) return { ok: false, result: `The tool could not be called: ${error.reason}` };
      if (error instanceof OutboundTimeoutError) return { ok: false, result: `The tool did not answer within ${secondsText(timeoutMs)}` };
      if (error instanceof OutboundTooLargeError) return { ok: false, result: `The tool's response is larger than ${Math.round(maxBytes / 1024)} KB` };
      if (error instanceof OutboundNetworkError) return { ok: false, result: `The tool could not be reached: ${error.message}` };
      this.deps.onError?.('A tool call failed unexpectedly', error);
      return { ok: false, result: 'The tool could not be called because of an unexpected error.' };
    }
  }
}
