/**
 * The team in one account (issue 32): members, invitations, roles, leaving, ownership, the
 * activity log, and the public invitation link's preview and acceptance. Query keys: ['team', …].
 */
import type { ActivityAction, ActivityPage, AssignableRole, InvitationPreview, JoinedAccount, TeamView } from '@agentdesk/functions/contract';
import { request, requestData } from './client';

/** The activity log's filters (GET /api/team/activity); empty ones are left out of the query. */
export interface ActivityFilters {
  member?: string;
  action?: ActivityAction | '';
  /** ISO instants. */
  from?: string;
  to?: string;
}

export const teamKeys = {
  all: ['team'] as const,
  view: ['team', 'view'] as const,
  activity: (filters: ActivityFilters) => ['team', 'activity', filters] as const,
  invitation: (token: string) => ['invitation', token] as const,
};

const id = (value: string) => encodeURIComponent(value);

/** The activity query string: the filters that are set, and the page's cursor. */
export function activitySearch(filters: ActivityFilters, cursor?: string | null): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries({ ...filters, cursor })) if (value) params.set(key, value);
  const query = params.toString();
  return query ? `?${query}` : '';
}

export const teamApi = {
  get: (signal?: AbortSignal) => requestData<TeamView>('/api/team', { signal }),
  invite: (body: { email: string; role: AssignableRole }) => request('/api/team/invitations', { method: 'POST', body }),
  revokeInvitation: (invitationId: string) => request(`/api/team/invitations/${id(invitationId)}`, { method: 'DELETE' }),
  resendInvitation: (invitationId: string) => request(`/api/team/invitations/${id(invitationId)}/resend`, { method: 'POST', body: {} }),
  changeRole: (memberId: string, role: AssignableRole) => request(`/api/team/members/${id(memberId)}/role`, { method: 'PUT', body: { role } }),
  remove: (memberId: string) => request(`/api/team/members/${id(memberId)}`, { method: 'DELETE' }),
  leave: () => request('/api/team/leave', { method: 'POST', body: {} }),
  transferOwnership: (memberId: string) => request('/api/team/ownership', { method: 'POST', body: { memberId } }),
  activity: (filters: ActivityFilters, cursor: string | null, signal?: AbortSignal) =>
    requestData<ActivityPage>(`/api/team/activity${activitySearch(filters, cursor)}`, { signal }),
  /** Public: what the invitation link offers (no session needed). */
  preview: (token: string, signal?: AbortSignal) => requestData<InvitationPreview>(`/api/invitations/${id(token)}`, { signal }),
  accept: (token: string) => requestData<JoinedAccount>('/api/invitations/accept', { method: 'POST', body: { token } }),
};
