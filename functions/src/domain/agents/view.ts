/**
 * Stored agent records → the API's entities (contract/agents.ts): no S3 keys, content hashes or
 * knowledge versions, and a tool's header value only as '***' when one is stored.
 */
import type { Agent, AgentFile, AgentTool, AgentUrl } from '../../contract/agents.js';
import type { AgentWithChildren, FileRecord, ToolRecord, UrlRecord } from './ports.js';

/** What a stored secret reads as (the same text as the integrations' MASKED_SECRET). */
export const MASKED = '***';

/** data of GET /api/files/{id}: a short-lived download link and what it downloads. */
export interface FileDownload {
  url: string;
  originalName: string;
  mimeType: string;
  size: number;
  expiresAt: string;
}

export function fileView(file: FileRecord): AgentFile {
  return {
    id: file._id,
    _id: file._id,
    originalName: file.originalName,
    mimeType: file.mimeType,
    size: file.size,
    uploadedAt: file.uploadedAt,
    status: file.status,
    shareable: file.shareable,
    ...(file.error ? { error: file.error } : {}),
    ...(file.chunkCount !== undefined ? { chunkCount: file.chunkCount } : {}),
  };
}

export function urlView(url: UrlRecord): AgentUrl {
  return {
    _id: url._id,
    link: url.link,
    status: url.status,
    lastUpdateAt: url.lastUpdateAt,
    ...(url.error ? { error: url.error } : {}),
    ...(url.chunkCount !== undefined ? { chunkCount: url.chunkCount } : {}),
    ...(url.title ? { title: url.title } : {}),
  };
}

export function toolView(tool: ToolRecord): AgentTool {
  return {
    _id: tool._id,
    name: tool.name,
    description: tool.description,
    type: tool.type,
    properties: tool.properties,
    required: tool.required,
    endpoint: tool.endpoint,
    method: tool.method,
    headerKey: tool.headerKey,
    headerValue: tool.sealedHeaderValue ? MASKED : '',
    createdAt: tool.createdAt,
    updatedAt: tool.updatedAt,
  };
}

export function agentView(agent: AgentWithChildren): Agent {
  return {
    _id: agent._id,
    name: agent.name,
    description: agent.description,
    objective: agent.objective,
    instructions: agent.instructions,
    knowledgeBase: agent.knowledgeBase,
    priority: agent.priority,
    enabled: agent.enabled,
    language: agent.language,
    minRelevance: agent.minRelevance,
    bookingsEnabled: agent.bookingsEnabled,
    whatsappTools: agent.whatsappTools,
    files: agent.files.map(fileView),
    urls: agent.urls.map(urlView),
    tools: agent.tools.map(toolView),
    entries: agent.entries.map(({ agentId: _agentId, ...entry }) => entry),
    createdAt: agent.createdAt,
    updatedAt: agent.updatedAt,
  };
}
