/** External pages linked from plan selection (SPEC §2 Subscription). */
export const SUPPORT_URL = 'https://agentdesk.app/support';
export const DEMO_URL = 'https://agentdesk.app/demo';
