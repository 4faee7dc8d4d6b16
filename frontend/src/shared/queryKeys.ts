/** TanStack Query keys one feature invalidates for another (a contact change moves the plan usage). */
export const billingKeys = {
  all: ['subscription'] as const,
  plans: ['subscription', 'plans'] as const,
  current: ['subscription', 'current'] as const,
  analytics: ['subscription', 'analytics'] as const,
  session: (id: string) => ['subscription', 'session', id] as const,
};
