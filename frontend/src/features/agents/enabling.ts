import type { Agent } from '@agentdesk/functions/contract';

/**
 * Whether the Enable action must wait for instructions: the server refuses to enable an agent
 * without them (new agents start disabled), so the switch and button say why instead of failing.
 */
export function needsInstructionsToEnable(agent: Pick<Agent, 'enabled' | 'instructions'>): boolean {
  return !agent.enabled && agent.instructions.trim() === '';
}

/** Read by screen readers, not shown: the reason a control is disabled (a tooltip needs a hover). */
export { VISUALLY_HIDDEN } from '../../shared/VisuallyHidden';
