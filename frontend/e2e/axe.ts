/**
 * An automated accessibility check (issue 19: badges and the 'Disable' button were below WCAG AA
 * contrast; issue 29: no violation on any page): axe-core, injected into the page, runs on the
 * whole page or on one part of it. `seriousViolations`: the serious and critical WCAG 2.x A/AA
 * ones; `allViolations`: every one axe's browser extension reports, whatever its impact.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import type { AxeResults, ImpactValue } from 'axe-core';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const WCAG_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const BLOCKING: readonly ImpactValue[] = ['serious', 'critical'];

export interface AxeFinding {
  id: string;
  impact: ImpactValue | null | undefined;
  help: string;
  /** A few offending elements with axe's own explanation (for the failure message). */
  nodes: { target: string; html: string; summary: string }[];
}

/** A desktop-sized page for axe (the app's CSP stays on: axe is injected through the DevTools protocol). */
export async function axePage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  return context.newPage();
}

/**
 * The serious and critical WCAG A/AA violations on the page as it is now, or only inside the
 * element `context` selects (e.g. '[data-testid="getting-started"]').
 */
export async function seriousViolations(page: Page, context?: string): Promise<AxeFinding[]> {
  const violations = await runAxe(page, { tags: WCAG_AA, context });
  return violations.filter((v) => BLOCKING.includes(v.impact ?? 'minor'));
}

/**
 * Every violation axe reports as its browser extension does by default, of any impact: WCAG 2.0,
 * 2.1 and 2.2 A/AA, axe's best practices (heading order, landmarks, one main…) and the
 * label-content-name-mismatch rule (WCAG 2.5.3: an aria-label must contain the visible text),
 * which axe ships as experimental and so runs only when asked for by name (issue 29).
 */
export async function allViolations(page: Page, context?: string): Promise<AxeFinding[]> {
  return runAxe(page, { tags: [...WCAG_AA, 'wcag22aa', 'best-practice'], rules: ['label-content-name-mismatch'], context });
}

async function runAxe(page: Page, options: { tags: string[]; rules?: string[]; context?: string }): Promise<AxeFinding[]> {
  if (!(await page.evaluate(() => 'axe' in window))) {
    // Evaluated through the DevTools protocol, so the app's CSP (script-src 'self') does not block it.
    await page.evaluate(AXE_SOURCE);
    // Colours are read as they are now: a button or text mid-transition (hover, enable, fade-in)
    // measured a blend and failed at random. The app's colours at rest are what is checked.
    await page.addStyleTag({ content: '*, *::before, *::after { transition: none !important; animation: none !important; }' });
  }
  return page.evaluate(
    async ({ tags, rules, selector }) => {
      const axe = (window as unknown as { axe: { run: (context: Document | string, options: object) => Promise<AxeResults> } }).axe;
      const results = await axe.run(selector ?? document, {
        runOnly: { type: 'tag', values: tags },
        rules: Object.fromEntries(rules.map((id) => [id, { enabled: true }])),
        resultTypes: ['violations'],
      });
      return results.violations.map((v) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        nodes: v.nodes.slice(0, 5).map((n) => ({ target: n.target.join(' '), html: n.html.slice(0, 160), summary: n.failureSummary ?? '' })),
      }));
    },
    { tags: options.tags, rules: options.rules ?? [], selector: options.context ?? null },
  );
}
