/**
 * HTML → structured document (headings, paragraphs, tables) over a linkedom DOM (no browser, no
 * jsdom). Used for web pages (after Mozilla Readability) and for DOCX (mammoth's HTML).
 *
 * Web pages: Readability keeps the article and drops navigation, footers and ads; when it finds no
 * article (or one much shorter than the page, e.g. a price table it judged boilerplate) the whole
 * body is used instead.
 */
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import { KnowledgeSourceError, knowledgeMessages } from '../../domain/knowledge/errors.js';
import type { DocumentBlock, StructuredDocument } from '../../domain/knowledge/ports.js';
import { renderDocument } from '../../domain/knowledge/chunking.js';
import { looksLikeHeader } from './structure.js';

export interface ExtractedPage extends StructuredDocument {
  title: string;
}

const SKIP = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'SVG', 'IFRAME', 'OBJECT', 'EMBED', 'CANVAS', 'HEAD', 'SELECT', 'BUTTON']);
const BLOCK = new Set([
  'ADDRESS', 'ARTICLE', 'ASIDE', 'BLOCKQUOTE', 'DD', 'DIV', 'DL', 'DT', 'FIELDSET', 'FIGCAPTION', 'FIGURE', 'FOOTER', 'FORM',
  'HEADER', 'HR', 'LI', 'MAIN', 'NAV', 'OL', 'P', 'PRE', 'SECTION', 'UL', 'CAPTION', 'DETAILS', 'SUMMARY',
]);
const HEADING = /^H([1-6])$/;
const BOLD = new Set(['B', 'STRONG', 'TH']);
const MAX_TITLE = 300;
/** Readability's article is kept unless it holds less than this share of the body's text. */
const MIN_ARTICLE_SHARE = 0.3;
/** Readability gives up (and the body text is used) on pages with more elements than this: bounds its time. */
const MAX_ARTICLE_ELEMENTS = 100_000;
/**
 * A page with more start tags than this is refused before linkedom builds its DOM (issue 28): the
 * DOM and the walk take ~2.4 KB per element (measured: 200,000 paragraphs, 3.3 MB of HTML, took
 * the process from 118 to 593 MB for 7 s), and the 5 MB download cap alone would let ~600,000 in.
 * Real pages have a few thousand; Readability already gives up past the same number.
 */
export const MAX_PAGE_ELEMENTS = 100_000;
/** A "table" with a cell longer than this is page layout, not data: its cells are read as paragraphs. */
const MAX_DATA_CELL = 400;

export interface DomNode {
  nodeType: number;
  nodeName: string;
  textContent: string | null;
  firstChild: DomNode | null;
  nextSibling: DomNode | null;
  getAttribute?(name: string): string | null;
}

// Siblings, not childNodes[i]: linkedom rebuilds childNodes on every access, which is quadratic on big pages.
function childrenOf(node: DomNode): DomNode[] {
  const out: DomNode[] = [];
  for (let child = node.firstChild; child; child = child.nextSibling) out.push(child);
  return out;
}

const nameOf = (node: DomNode) => node.nodeName.toUpperCase();

/** The inline text of a subtree on one line (line breaks and nested blocks become spaces); `bold` when all its text is bold. */
function inlineText(root: DomNode): { text: string; bold: boolean } {
  let text = '';
  let boldChars = 0;
  let chars = 0;
  // Iterative: deeply nested markup must not overflow the stack.
  const stack: { node: DomNode; bold: boolean }[] = [{ node: root, bold: false }];
  while (stack.length > 0) {
    const { node, bold } = stack.pop()!;
    if (node.nodeType === 3) {
      const t = node.textContent ?? '';
      text += t;
      const n = t.replace(/\s+/g, '').length;
      chars += n;
      if (bold) boldChars += n;
      continue;
    }
    if (node.nodeType !== 1 && node.nodeType !== 9 && node.nodeType !== 11) continue;
    const name = nameOf(node);
    if (SKIP.has(name)) continue;
    if (name === 'BR' || BLOCK.has(name) || name === 'TD' || name === 'TH' || name === 'TR') text += ' ';
    const children = childrenOf(node);
    for (let i = children.length - 1; i >= 0; i--) stack.push({ node: children[i]!, bold: bold || BOLD.has(name) });
  }
  return { text: text.replace(/\s+/g, ' ').trim(), bold: chars > 0 && boldChars === chars };
}

/** The rows of a table element (not of tables nested in its cells), and whether the first is marked a header. */
function readTable(table: DomNode): { rows: string[][]; marked: boolean; boldHead: boolean } {
  const rows: string[][] = [];
  let marked = false;
  let boldHead = false;
  const stack: { node: DomNode; head: boolean }[] = childrenOf(table).reverse().map((node) => ({ node, head: false }));
  while (stack.length > 0) {
    const { node, head } = stack.pop()!;
    if (node.nodeType !== 1) continue;
    const name = nameOf(node);
    if (name === 'TABLE' || SKIP.has(name)) continue;
    if (name === 'TR') {
      const cells: string[] = [];
      let allTh = true;
      let allBold = true;
      for (const cell of childrenOf(node)) {
        const cellName = cell.nodeType === 1 ? nameOf(cell) : '';
        if (cellName !== 'TD' && cellName !== 'TH') continue;
        const { text, bold } = inlineText(cell);
        if (cellName !== 'TH') allTh = false;
        if (text && !bold) allBold = false;
        const span = Math.min(20, Math.max(1, Number(cell.getAttribute?.('colspan') ?? 1) || 1));
        cells.push(text, ...Array<string>(span - 1).fill(''));
      }
      if (cells.length === 0) continue;
      if (rows.length === 0) {
        marked = head || allTh;
        boldHead = allBold && cells.some(Boolean);
      }
      rows.push(cells);
      continue;
    }
    const children = childrenOf(node);
    for (let i = children.length - 1; i >= 0; i--) stack.push({ node: children[i]!, head: head || name === 'THEAD' });
  }
  return { rows, marked, boldHead };
}

/** The blocks of a DOM subtree: h1–h6 headings, paragraphs (block elements; <br> keeps a line break), tables as rows. */
export function htmlBlocks(root: DomNode): DocumentBlock[] {
  const blocks: DocumentBlock[] = [];
  let buffer = '';
  const flush = () => {
    const text = buffer
      .split('\n')
      .map((line) => line.replace(/\s+/g, ' ').trim())
      .filter(Boolean)
      .join('\n');
    if (text) blocks.push({ kind: 'paragraph', text });
    buffer = '';
  };
  const stack: { node: DomNode; pre: boolean; close?: true }[] = [{ node: root, pre: false }];
  while (stack.length > 0) {
    const { node, pre, close } = stack.pop()!;
    if (close) {
      flush();
      continue;
    }
    if (node.nodeType === 3) {
      const t = node.textContent ?? '';
      buffer += pre ? t : t.replace(/\s+/g, ' ');
      continue;
    }
    if (node.nodeType !== 1 && node.nodeType !== 9 && node.nodeType !== 11) continue;
    const name = nameOf(node);
    if (SKIP.has(name)) continue;
    if (name === 'BR') {
      buffer += '\n';
      continue;
    }
    const heading = HEADING.exec(name);
    if (heading) {
      flush();
      const { text } = inlineText(node);
      if (text) blocks.push({ kind: 'heading', level: Number(heading[1]), text });
      continue;
    }
    if (name === 'TABLE') {
      flush();
      const { rows, marked, boldHead } = readTable(node);
      const columns = Math.max(0, ...rows.map((r) => r.length));
      const nonEmpty = rows.filter((r) => r.some(Boolean));
      if (columns < 2 || nonEmpty.length === 0 || rows.some((r) => r.some((c) => c.length > MAX_DATA_CELL))) {
        // Layout, not data: its cells are paragraphs.
        for (const row of nonEmpty) for (const cell of row) if (cell) blocks.push({ kind: 'paragraph', text: cell });
      } else {
        const padded = nonEmpty.map((r) => (r.length < columns ? [...r, ...Array<string>(columns - r.length).fill('')] : r));
        blocks.push({ kind: 'table', rows: padded, header: marked || boldHead || looksLikeHeader(padded) });
      }
      continue;
    }
    const block = BLOCK.has(name);
    if (block) {
      flush();
      stack.push({ node, pre, close: true });
    }
    const children = childrenOf(node);
    for (let i = children.length - 1; i >= 0; i--) stack.push({ node: children[i]!, pre: pre || name === 'PRE' });
  }
  flush();
  return blocks;
}

export function parseHtmlBody(html: string): DomNode | null {
  // linkedom builds no document element for markup without <html>: give it one.
  const markup = /<html[\s>]/i.test(html) ? html : `<!doctype html><html><body>${html}</body></html>`;
  return (parseHTML(markup).document.body as unknown as DomNode | null) ?? null;
}

/** Start tags in `html` (a '<' before a letter), counted up to just past `stopAfter`: the elements a DOM of it would hold. */
export function countStartTags(html: string, stopAfter = Number.MAX_SAFE_INTEGER): number {
  let count = 0;
  for (let at = html.indexOf('<'); at >= 0 && count <= stopAfter; at = html.indexOf('<', at + 1)) {
    const next = html.charCodeAt(at + 1) | 0x20;
    if (next >= 0x61 && next <= 0x7a) count++;
  }
  return count;
}

export function extractHtml(raw: string, url: string): ExtractedPage {
  if (countStartTags(raw, MAX_PAGE_ELEMENTS) > MAX_PAGE_ELEMENTS) throw new KnowledgeSourceError(knowledgeMessages.pageTooComplex(MAX_PAGE_ELEMENTS));
  const html = /<html[\s>]/i.test(raw) ? raw : `<!doctype html><html><body>${raw}</body></html>`;
  const { document } = parseHTML(html);
  const docTitle = (document.querySelector('title')?.textContent ?? '').trim();
  const ogTitle = (document.querySelector('meta[property="og:title"]')?.getAttribute('content') ?? '').trim();
  const bodyBlocks = document.body ? htmlBlocks(document.body as unknown as DomNode) : [];

  let articleBlocks: DocumentBlock[] = [];
  let articleTitle = '';
  try {
    // Readability changes the DOM it reads: everything needed from the original is read above.
    setDocumentUrl(document, url);
    const article = new Readability(document as unknown as ConstructorParameters<typeof Readability>[0], { charThreshold: 200, maxElemsToParse: MAX_ARTICLE_ELEMENTS }).parse();
    if (article?.content) {
      const body = parseHtmlBody(article.content);
      articleBlocks = body ? htmlBlocks(body) : [];
      articleTitle = (article.title ?? '').trim();
    }
  } catch {
    // Readability gave up on this markup: the body stands.
  }
  const bodyLength = renderDocument({ blocks: bodyBlocks }).length;
  const articleLength = renderDocument({ blocks: articleBlocks }).length;
  const blocks = articleLength > 0 && articleLength >= bodyLength * MIN_ARTICLE_SHARE ? articleBlocks : bodyBlocks;
  const title = (articleTitle || docTitle || ogTitle).replace(/\s+/g, ' ').slice(0, MAX_TITLE);
  return { title, blocks };
}

/** Readability resolves relative links against document.baseURI / documentURI; linkedom leaves them unset. */
function setDocumentUrl(document: object, url: string): void {
  for (const prop of ['documentURI', 'baseURI', 'URL']) {
    try {
      Object.defineProperty(document, prop, { value: url, configurable: true });
    } catch {
      // read-only in this DOM: links stay relative, the text is unaffected
    }
  }
}
