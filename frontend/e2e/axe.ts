/**
 * An automated accessibility check (issue 19: badges and the 'Disable' button were below WCAG AA
 * contrast): axe-core, injected into the page, runs the WCAG 2.x A/AA rules; the caller asserts
 * there is no serious or critical violation.
 */
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import type { AxeResults, ImpactValue } from 'axe-core';

const AXE_PATH = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const WCAG_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const BLOCKING: readonly ImpactValue[] = ['serious', 'critical'];

export interface AxeFinding {
  id: string;
  impact: ImpactValue | null | undefined;
  help: string;
  /** A few offending elements with axe's own explanation (for the failure message). */
  nodes: { target: string; html: string; summary: string }[];
}

/**
 * A page for axe: addScriptTag inlines axe's source, which the app's CSP (script-src 'self') would
 * block, so this context bypasses CSP. Other e2e files keep checking the CSP (flows.newPage).
 */
export async function axePage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, bypassCSP: true });
  return context.newPage();
}

/** The serious and critical WCAG A/AA violations on the page as it is now. */
export async function seriousViolations(page: Page): Promise<AxeFinding[]> {
  if (!(await page.evaluate(() => 'axe' in window))) {
    await page.addScriptTag({ path: AXE_PATH });
    // Colours are read as they are now: a button or text mid-transition (hover, enable, fade-in)
    // measured a blend and failed at random. The app's colours at rest are what is checked.
    await page.addStyleTag({ content: '*, *::before, *::after { transition: none !important; animation: none !important; }' });
  }
  const violations = await page.evaluate(async (tags) => {
    const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<AxeResults> } }).axe;
    const results = await axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    return results.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.slice(0, 5).map((n) => ({ target: n.target.join(' '), html: n.html.slice(0, 160), summary: n.failureSummary ?? '' })),
    }));
  }, WCAG_AA);
  return violations.filter((v) => BLOCKING.includes(v.impact ?? 'minor'));
}
