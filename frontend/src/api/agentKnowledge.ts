/**
 * The agent detail tabs' calls (SPEC §7 Agents): files (presigned direct uploads with progress,
 * download, delete, reprocess), web URLs (add, refresh, reprocess, delete), custom tools (CRUD)
 * and the test chat.
 */
import type {
  AgentFile,
  AgentTool,
  AgentUrl,
  ChatInput,
  ChatReply,
  FileUploadInput,
  FileUploadTicket,
  ToolInput,
} from '@agentdesk/functions/contract';
import { ApiError, request, requestData } from './client';

const agentPath = (agentId: string) => `/api/agents/${encodeURIComponent(agentId)}`;
const childPath = (agentId: string, kind: 'files' | 'urls' | 'tools', childId: string) =>
  `${agentPath(agentId)}/${kind}/${encodeURIComponent(childId)}`;

/** A chat turn runs retrieval, the model and up to five tool rounds: allow it more than the usual 30 s. */
export const CHAT_TIMEOUT_MS = 90_000;

export const agentKnowledgeApi = {
  // Files
  listFiles: (agentId: string, signal?: AbortSignal) => requestData<AgentFile[]>(`${agentPath(agentId)}/files`, { signal }),
  /** Presigned upload tickets, one per file, in the order asked. */
  requestUploads: (agentId: string, input: FileUploadInput) =>
    requestData<FileUploadTicket[]>(`${agentPath(agentId)}/files/uploads`, { method: 'POST', body: input }),
  /** Confirms a direct upload; the envelope's message is the spec's upload message. */
  completeUpload: (agentId: string, fileId: string) =>
    request<AgentFile>(`${childPath(agentId, 'files', fileId)}/complete`, { method: 'POST' }),
  deleteFile: (agentId: string, fileId: string) => request(childPath(agentId, 'files', fileId), { method: 'DELETE' }),
  /** A file that failed read again (back to pending, its job queued). */
  reprocessFile: (agentId: string, fileId: string) => request<AgentFile>(`${childPath(agentId, 'files', fileId)}/reprocess`, { method: 'POST' }),
  /** PATCH …/files/{fileId} (issue 31): "can be sent to customers" by the agent's send_file tool. */
  setFileShareable: (agentId: string, fileId: string, shareable: boolean) => request<AgentFile>(childPath(agentId, 'files', fileId), { method: 'PATCH', body: { shareable } }),
  /** GET /api/files/{id}: a short-lived link to the stored file. */
  fileLink: (fileId: string) => requestData<{ url: string }>(`/api/files/${encodeURIComponent(fileId)}`),

  // Web URLs
  listUrls: (agentId: string, signal?: AbortSignal) => requestData<AgentUrl[]>(`${agentPath(agentId)}/urls`, { signal }),
  addUrls: (agentId: string, urls: string[]) => request<AgentUrl[]>(`${agentPath(agentId)}/urls`, { method: 'POST', body: { urls } }),
  refreshUrl: (agentId: string, urlId: string) => request<AgentUrl>(childPath(agentId, 'urls', urlId), { method: 'PUT', body: {} }),
  deleteUrl: (agentId: string, urlId: string) => request(childPath(agentId, 'urls', urlId), { method: 'DELETE' }),
  /** A URL that failed read again from its link. */
  reprocessUrl: (agentId: string, urlId: string) => request<AgentUrl>(`${childPath(agentId, 'urls', urlId)}/reprocess`, { method: 'POST' }),

  // Custom tools
  listTools: (agentId: string, signal?: AbortSignal) => requestData<AgentTool[]>(`${agentPath(agentId)}/tools`, { signal }),
  createTool: (agentId: string, input: ToolInput) => request<AgentTool>(`${agentPath(agentId)}/tools`, { method: 'POST', body: input }),
  updateTool: (agentId: string, toolId: string, input: ToolInput) =>
    request<AgentTool>(childPath(agentId, 'tools', toolId), { method: 'PUT', body: input }),
  deleteTool: (agentId: string, toolId: string) => request(childPath(agentId, 'tools', toolId), { method: 'DELETE' }),

  // Test chat
  chat: (agentId: string, input: ChatInput) =>
    requestData<ChatReply>(`${agentPath(agentId)}/chat`, { method: 'POST', body: input, timeoutMs: CHAT_TIMEOUT_MS }),
};

/**
 * Sends a file straight to storage with the ticket's signed form (S3 POST Object): every field
 * first, the file last (storage ignores fields after it), as multipart/form-data through
 * XMLHttpRequest for upload progress. Storage itself refuses another size range, key or type.
 * Resolves when storage accepted it; rejects with ApiError(status) otherwise.
 */
export function postFileToTicket(
  ticket: Pick<FileUploadTicket, 'url' | 'fields'>,
  file: Blob,
  onProgress: (loaded: number, total: number) => void,
  signal?: AbortSignal,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const form = new FormData();
    for (const [name, value] of Object.entries(ticket.fields)) form.append(name, value);
    form.append('file', file);
    const xhr = new XMLHttpRequest();
    xhr.open('POST', ticket.url);
    xhr.upload.onprogress = (event) => {
      // The form is a little larger than the file: report the file's share of it.
      const loaded = event.lengthComputable && event.total > 0 ? Math.round((file.size * event.loaded) / event.total) : event.loaded;
      onProgress(Math.min(loaded, file.size), file.size);
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(file.size, file.size);
        resolve();
      } else {
        reject(new ApiError(xhr.status, undefined));
      }
    };
    xhr.onerror = () => reject(new ApiError(0, undefined));
    xhr.ontimeout = () => reject(new ApiError(0, undefined));
    xhr.onabort = () => reject(new DOMException('Upload cancelled', 'AbortError'));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(form);
  });
}
