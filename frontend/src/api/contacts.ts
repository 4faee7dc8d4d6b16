/** Contacts calls (SPEC §7 Contacts, plus the CSV import and export and the import from WhatsApp). */
import type {
  Contact,
  ContactImportPreview,
  ContactImportResult,
  ContactListResponse,
  ContactStats,
  ContactTimeline,
  CreateContactInput,
  UpdateContactInput,
  WhatsAppImportResult,
} from '@agentdesk/functions/contract';
import { request, requestBody, requestData, requestResponse } from './client';

const BASE = '/api/contacts';

export const contactsApi = {
  /** `query` is the page/limit/search/source query string; pagination sits at the top level. */
  list: (query: string, signal?: AbortSignal) => requestBody<ContactListResponse>(`${BASE}?${query}`, { signal }),
  stats: (signal?: AbortSignal) => requestData<ContactStats>(`${BASE}/stats`, { signal }),
  get: (id: string, signal?: AbortSignal) => requestData<Contact>(`${BASE}/${encodeURIComponent(id)}`, { signal }),
  /** The contact's calls and WhatsApp conversations, newest first (at most `limit`; hasMore beyond). */
  timeline: (id: string, limit: number, signal?: AbortSignal) =>
    requestData<ContactTimeline>(`${BASE}/${encodeURIComponent(id)}/timeline?limit=${limit}`, { signal }),
  create: (input: CreateContactInput) => requestData<Contact>(BASE, { method: 'POST', body: input }),
  update: (id: string, input: UpdateContactInput) =>
    requestData<Contact>(`${BASE}/${encodeURIComponent(id)}`, { method: 'PUT', body: input }),
  remove: (id: string) => request(`${BASE}/${encodeURIComponent(id)}`, { method: 'DELETE' }),
  importPreview: (csv: string) =>
    requestData<ContactImportPreview>(`${BASE}/import/preview`, { method: 'POST', body: { csv } }),
  importCsv: (csv: string) => requestData<ContactImportResult>(`${BASE}/import`, { method: 'POST', body: { csv } }),
  /** Adds every WhatsApp sender not yet in the directory; message e.g. '3 contacts imported from WhatsApp'. */
  importWhatsApp: () => request<WhatsAppImportResult>(`${BASE}/import-whatsapp`, { method: 'POST' }),
  /** The CSV of every contact matching search and source. */
  exportCsv: async (query: string): Promise<Blob> => {
    const res = await requestResponse(`${BASE}/export${query ? `?${query}` : ''}`);
    return res.blob();
  },
};

/** Saves a blob as a download (a temporary link). */
export function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
