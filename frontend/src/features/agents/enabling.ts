import type { Agent } from '@agentdesk/functions/contract';

/**
 * Whether the Enable action must wait for instructions: the server refuses to enable an agent
 * without them (new agents start disabled), so the switch and button say why instead of failing.
 */
export function needsInstructionsToEnable(agent: Pick<Agent, 'enabled' | 'instructions'>): boolean {
  return !agent.enabled && agent.instructions.trim() === '';
}

/** Read by screen readers, not shown: the reason a control is disabled (a tooltip needs a hover). */
export const VISUALLY_HIDDEN = {
  border: 0,
  clip: 'rect(0 0 0 0)',
  height: '1px',
  margin: '-1px',
  overflow: 'hidden',
  padding: 0,
  position: 'absolute',
  whiteSpace: 'nowrap',
  width: '1px',
} as const;
