/**
 * HTML → readable text with Mozilla Readability over a linkedom DOM (no browser, no jsdom).
 * Readability keeps the article and drops navigation, footers and ads; when it finds no article
 * (or one much shorter than the page, e.g. a price table it judged boilerplate) the whole body's
 * text is used instead. Block elements become line breaks so chunking sees the paragraphs.
 */
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';

export interface ExtractedPage {
  title: string;
  text: string;
}

const SKIP = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'SVG', 'IFRAME', 'OBJECT', 'EMBED', 'CANVAS', 'HEAD', 'SELECT', 'BUTTON']);
const BLOCK = new Set([
  'ADDRESS', 'ARTICLE', 'ASIDE', 'BLOCKQUOTE', 'DD', 'DIV', 'DL', 'DT', 'FIELDSET', 'FIGCAPTION', 'FIGURE', 'FOOTER', 'FORM',
  'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'HEADER', 'HR', 'LI', 'MAIN', 'NAV', 'OL', 'P', 'PRE', 'SECTION', 'TABLE', 'UL', 'TR',
  'CAPTION', 'DETAILS', 'SUMMARY',
]);
const CELL = new Set(['TD', 'TH']);
const MAX_TITLE = 300;
/** Readability's article is kept unless it holds less than this share of the body's text. */
const MIN_ARTICLE_SHARE = 0.3;
/** Readability gives up (and the body text is used) on pages with more elements than this: bounds its time. */
const MAX_ARTICLE_ELEMENTS = 100_000;

interface DomNode {
  nodeType: number;
  nodeName: string;
  textContent: string | null;
  firstChild: DomNode | null;
  nextSibling: DomNode | null;
}

/** The text of a DOM subtree: block elements on their own lines, table cells separated by " | ". */
export function domText(root: DomNode): string {
  const out: string[] = [];
  // Iterative (deeply nested markup must not overflow the stack). Siblings, not childNodes[i]:
  // linkedom rebuilds childNodes on every access, which is quadratic on big pages.
  const stack: { node: DomNode; pre: boolean; close?: string }[] = [{ node: root, pre: false }];
  while (stack.length > 0) {
    const { node, pre, close } = stack.pop()!;
    if (close !== undefined) {
      out.push(close);
      continue;
    }
    if (node.nodeType === 3) {
      const t = node.textContent ?? '';
      out.push(pre ? t : t.replace(/\s+/g, ' '));
      continue;
    }
    if (node.nodeType !== 1 && node.nodeType !== 9 && node.nodeType !== 11) continue;
    const name = node.nodeName.toUpperCase();
    if (SKIP.has(name)) continue;
    if (name === 'BR') {
      out.push('\n');
      continue;
    }
    const block = BLOCK.has(name);
    if (block) out.push('\n\n');
    if (CELL.has(name)) out.push(' | ');
    if (block) stack.push({ node, pre, close: '\n\n' });
    const children: DomNode[] = [];
    for (let child = node.firstChild; child; child = child.nextSibling) children.push(child);
    for (let i = children.length - 1; i >= 0; i--) stack.push({ node: children[i]!, pre: pre || name === 'PRE' });
  }
  return out
    .join('')
    .split('\n')
    .map((line) => line.replace(/^[\s|]+|[\s|]+$/g, '').replace(/ {2,}/g, ' '))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

export function extractHtml(raw: string, url: string): ExtractedPage {
  // linkedom builds no document element for markup without <html>: give it one.
  const html = /<html[\s>]/i.test(raw) ? raw : `<!doctype html><html><body>${raw}</body></html>`;
  const { document } = parseHTML(html);
  const docTitle = (document.querySelector('title')?.textContent ?? '').trim();
  const ogTitle = (document.querySelector('meta[property="og:title"]')?.getAttribute('content') ?? '').trim();
  const bodyText = document.body ? domText(document.body as unknown as DomNode) : '';

  let articleText = '';
  let articleTitle = '';
  try {
    // Readability changes the DOM it reads: everything needed from the original is read above.
    setDocumentUrl(document, url);
    const article = new Readability(document as unknown as ConstructorParameters<typeof Readability>[0], { charThreshold: 200, maxElemsToParse: MAX_ARTICLE_ELEMENTS }).parse();
    if (article?.content) {
      articleText = domText(parseHTML(`<!doctype html><html><body>${article.content}</body></html>`).document.body as unknown as DomNode);
      articleTitle = (article.title ?? '').trim();
    }
  } catch {
    // Readability gave up on this markup: the body text stands.
  }
  const text = articleText && articleText.length >= bodyText.length * MIN_ARTICLE_SHARE ? articleText : bodyText;
  const title = (articleTitle || docTitle || ogTitle).replace(/\s+/g, ' ').slice(0, MAX_TITLE);
  return { title, text };
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
