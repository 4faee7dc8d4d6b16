/**
 * A web page → its readable structure (headings, paragraphs, tables) and title, fetched through the outbound guard (public addresses only,
 * re-checked on every redirect and at connect time). HTML goes through Readability (html.ts,
 * title kept); text/plain is taken as is; anything else is refused. Every way a page cannot be
 * used becomes a KnowledgeSourceError whose message the user sees next to the URL; the user can
 * fix the URL or press Refresh, so none of them is retried by the queue.
 */
import { KnowledgeSourceError, knowledgeMessages } from '../../domain/knowledge/errors.js';
import {
  OutboundBlockedError,
  OutboundNetworkError,
  OutboundTimeoutError,
  OutboundTooLargeError,
  type GuardedRequest,
  type GuardedResponse,
} from '../outbound/guarded-fetch.js';
import { extractHtml, type ExtractedPage } from './html.js';
import { decodeText, extractText } from './text.js';

export interface WebPageOptions {
  timeoutMs: number;
  maxBytes: number;
}

export const WEB_PAGE_DEFAULTS: WebPageOptions = { timeoutMs: 15_000, maxBytes: 5 * 1024 * 1024 };

const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);
const TEXT_TYPES = new Set(['text/plain']);

export type Fetcher = (url: string, req?: GuardedRequest) => Promise<GuardedResponse>;

export async function fetchWebPage(link: string, fetcher: Fetcher, options: WebPageOptions = WEB_PAGE_DEFAULTS): Promise<ExtractedPage> {
  let response: GuardedResponse;
  try {
    response = await fetcher(link, {
      timeoutMs: options.timeoutMs,
      maxBytes: options.maxBytes,
      failOnTooLarge: true,
      headers: {
        accept: 'text/html,application/xhtml+xml,text/plain;q=0.9,*/*;q=0.1',
        'user-agent': 'Mozilla/5.0 (compatible; AgentDeskBot/1.0; knowledge ingestion)',
      },
    });
  } catch (error) {
    if (error instanceof OutboundBlockedError) throw new KnowledgeSourceError(error.message.startsWith('Blocked') ? error.message : knowledgeMessages.blocked);
    if (error instanceof OutboundTimeoutError) throw new KnowledgeSourceError(knowledgeMessages.pageTimeout(Math.round(options.timeoutMs / 1000)));
    if (error instanceof OutboundTooLargeError) throw new KnowledgeSourceError(knowledgeMessages.pageTooLarge(Math.round(options.maxBytes / (1024 * 1024))));
    if (error instanceof OutboundNetworkError) throw new KnowledgeSourceError(error.message || knowledgeMessages.pageUnreachable);
    throw error;
  }
  if (response.status < 200 || response.status >= 300) throw new KnowledgeSourceError(knowledgeMessages.httpStatus(response.status));

  const contentType = response.headers['content-type'] ?? '';
  const [rawType, ...params] = contentType.split(';');
  const type = (rawType ?? '').trim().toLowerCase();
  const charset = params.map((p) => /^\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(p)?.[1]).find(Boolean);
  const body = new Uint8Array(response.body.buffer, response.body.byteOffset, response.body.byteLength);

  if (HTML_TYPES.has(type) || (type === '' && looksLikeHtml(body))) {
    return extractHtml(decodeText(body, charset ?? metaCharset(body)), response.url);
  }
  if (TEXT_TYPES.has(type)) return { title: '', ...extractText(body, charset) };
  throw new KnowledgeSourceError(knowledgeMessages.unsupportedContentType(type || 'unknown'));
}

function looksLikeHtml(body: Uint8Array): boolean {
  const head = Buffer.from(body.subarray(0, 1024)).toString('latin1').trimStart().toLowerCase();
  return head.startsWith('<!doctype html') || head.startsWith('<html') || /<(head|body)[\s>]/.test(head);
}

/** <meta charset="..."> or <meta http-equiv="Content-Type" content="...; charset=..."> in the first 2 KB. */
function metaCharset(body: Uint8Array): string | undefined {
  const head = Buffer.from(body.subarray(0, 2048)).toString('latin1');
  return /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(head)?.[1];
}
