/**
 * Patients' data under the owner's control (issue 33): the account's retention, notices and
 * opt-out words; what is held about one person and its erasure or export (background jobs); a
 * customer's opt-out set by hand; the account's deletion. Query keys: ['privacy', …].
 */
import type { OptOutState, PersonDataInventory, PersonRefRequest, PrivacyJobPage, PrivacyJobView, PrivacySettings } from '@agentdesk/functions/contract';
import { request, requestData } from './client';

export const privacyKeys = {
  all: ['privacy'] as const,
  settings: ['privacy', 'settings'] as const,
  jobs: ['privacy', 'jobs'] as const,
  job: (id: string) => ['privacy', 'job', id] as const,
  lookup: (person: PersonRefRequest) => ['privacy', 'lookup', person] as const,
};

export const privacyApi = {
  settings: (signal?: AbortSignal) => requestData<PrivacySettings>('/api/privacy/settings', { signal }),
  saveSettings: (settings: PrivacySettings) => request<PrivacySettings>('/api/privacy/settings', { method: 'PUT', body: settings }),
  /** What the person's erasure or export would take (the person is named in the body, never in the URL). */
  lookup: (person: PersonRefRequest, signal?: AbortSignal) => requestData<PersonDataInventory>('/api/privacy/people/lookup', { method: 'POST', body: person, signal }),
  erase: (person: PersonRefRequest, confirmation: string) => requestData<PrivacyJobView>('/api/privacy/erasures', { method: 'POST', body: { ...person, confirmation } }),
  export: (person: PersonRefRequest) => requestData<PrivacyJobView>('/api/privacy/exports', { method: 'POST', body: person }),
  jobs: (cursor: string | null, signal?: AbortSignal) =>
    requestData<PrivacyJobPage>(`/api/privacy/jobs${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`, { signal }),
  job: (id: string, signal?: AbortSignal) => requestData<PrivacyJobView>(`/api/privacy/jobs/${encodeURIComponent(id)}`, { signal }),
  setOptOut: (person: PersonRefRequest, optedOut: boolean) =>
    requestData<{ phoneNumber: string; optOut: OptOutState | null }>('/api/privacy/opt-out', { method: 'PUT', body: { ...person, optedOut } }),
  /** 202: the deletion runs as a job; the session ends right after. */
  deleteAccount: (confirmation: string) => request('/api/privacy/account-deletion', { method: 'POST', body: { confirmation } }),
};
