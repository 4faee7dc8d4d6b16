/** Contacts calls (SPEC §7 Contacts, plus bulk actions, the CSV import/export jobs and the import from WhatsApp). */
import type {
  BulkDeleteContactsResult,
  BulkTagContactsInput,
  BulkTagContactsResult,
  Contact,
  ContactExportJob,
  ContactFacets,
  ContactImportJob,
  ContactImportJobList,
  CreateExportJobInput,
  CreateImportJobInput,
  ImportPreview as ImportJobPreview,
  ImportUploadTicket,
  ContactListResponse,
  ContactStats,
  ContactTimeline,
  CreateContactInput,
  UpdateContactInput,
  WhatsAppImportResult,
} from '@agentdesk/functions/contract';
import { request, requestBody, requestData } from './client';

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
  /** Adds every WhatsApp sender not yet in the directory; message e.g. '3 contacts imported from WhatsApp'. */
  importWhatsApp: () => request<WhatsAppImportResult>(`${BASE}/import-whatsapp`, { method: 'POST' }),
  /** Tags and custom field names in use (the filters' choices). */
  facets: (signal?: AbortSignal) => requestData<ContactFacets>(`${BASE}/facets`, { signal }),
  bulkDelete: (ids: string[]) => requestData<BulkDeleteContactsResult>(`${BASE}/bulk-delete`, { method: 'POST', body: { ids } }),
  bulkTag: (input: BulkTagContactsInput) => requestData<BulkTagContactsResult>(`${BASE}/bulk-tag`, { method: 'POST', body: input }),
  /** Import jobs: a presigned upload, the preview with the suggested mapping, the job, its progress and undo. */
  importUpload: (fileName: string, size: number) =>
    requestData<ImportUploadTicket>(`${BASE}/import-jobs/uploads`, { method: 'POST', body: { fileName, size } }),
  importJobPreview: (input: { uploadId: string; delimiter?: string; encoding?: string }) =>
    requestData<ImportJobPreview>(`${BASE}/import-jobs/preview`, { method: 'POST', body: input }),
  createImportJob: (input: CreateImportJobInput) => requestData<ContactImportJob>(`${BASE}/import-jobs`, { method: 'POST', body: input }),
  importJob: (id: string, signal?: AbortSignal) => requestData<ContactImportJob>(`${BASE}/import-jobs/${encodeURIComponent(id)}`, { signal }),
  importJobs: (signal?: AbortSignal) => requestBody<ContactImportJobList>(`${BASE}/import-jobs`, { signal }),
  undoImportJob: (id: string) => requestData<ContactImportJob>(`${BASE}/import-jobs/${encodeURIComponent(id)}/undo`, { method: 'POST' }),
  createExportJob: (input: CreateExportJobInput) => requestData<ContactExportJob>(`${BASE}/export-jobs`, { method: 'POST', body: input }),
  exportJob: (id: string, signal?: AbortSignal) => requestData<ContactExportJob>(`${BASE}/export-jobs/${encodeURIComponent(id)}`, { signal }),
};

/**
 * Sends the file to the presigned form POST (S3 answers 204) with upload progress (0..1): fetch
 * cannot report upload progress, XMLHttpRequest can. No Authorization header: the form is signed.
 */
export function uploadWithProgress(ticket: ImportUploadTicket, file: File, onProgress: (fraction: number) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const form = new FormData();
    for (const [key, value] of Object.entries(ticket.fields)) form.append(key, value);
    form.append('file', file);
    const xhr = new XMLHttpRequest();
    xhr.open('POST', ticket.url);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => (xhr.status >= 200 && xhr.status < 300 ? resolve() : reject(new Error(`upload failed (${xhr.status})`)));
    xhr.onerror = () => reject(new Error('upload failed'));
    xhr.send(form);
  });
}
