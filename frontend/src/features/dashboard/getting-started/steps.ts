/** Where each getting-started step sends the owner: the screen where that step is done. */
import type { GettingStarted, GettingStartedStepId } from '@agentdesk/functions/contract';

export function stepLink(id: GettingStartedStepId, agentId: GettingStarted['agentId']): string {
  switch (id) {
    case 'chatgpt':
    case 'channel':
      return '/integrations';
    case 'agent':
      return '/agents';
    // The agent's own tabs once there is one; before that, the agents list to create it.
    case 'knowledge':
      return agentId ? `/agents/${encodeURIComponent(agentId)}?tab=knowledge` : '/agents';
    case 'test':
      return agentId ? `/agents/${encodeURIComponent(agentId)}?tab=test` : '/agents';
    case 'bookings':
      return '/bookings/setup';
  }
}
