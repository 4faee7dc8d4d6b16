/**
 * The agent detail tabs (SPEC §2 Agent detail, plus Knowledge from issue 18): which one the URL selects (?tab=), which need the
 * ChatGPT integration (Files, Web URLs), and when a selected one falls back to Agent Details.
 */
export const AGENT_TABS = ['details', 'files', 'urls', 'tools', 'knowledge', 'test'] as const;
export type AgentTab = (typeof AGENT_TABS)[number];

export const DEFAULT_TAB: AgentTab = 'details';

/** Files and Web URLs work only with an active ChatGPT integration (embeddings use the user's key). */
const GATED: ReadonlySet<AgentTab> = new Set<AgentTab>(['files', 'urls']);

export function isAgentTab(value: unknown): value is AgentTab {
  return typeof value === 'string' && (AGENT_TABS as readonly string[]).includes(value);
}

/** The ?tab= value; anything unknown is Agent Details. */
export function parseTab(value: string | null): AgentTab {
  return isAgentTab(value) ? value : DEFAULT_TAB;
}

export function tabNeedsIntegration(tab: AgentTab): boolean {
  return GATED.has(tab);
}

/**
 * Whether a selected tab must revert to Agent Details: only when the integration was active and
 * has just become inactive. Opened without it (e.g. ?tab=files), the tab stays and shows the
 * 'ChatGPT Integration Required' panel instead.
 */
export function revertsToDetails(tab: AgentTab, wasActive: boolean, isActive: boolean): boolean {
  return tabNeedsIntegration(tab) && wasActive && !isActive;
}

/** The search params for a tab: Agent Details is the default and leaves the URL clean. */
export function tabParams(current: URLSearchParams, tab: AgentTab): URLSearchParams {
  const next = new URLSearchParams(current);
  if (tab === DEFAULT_TAB) next.delete('tab');
  else next.set('tab', tab);
  return next;
}
