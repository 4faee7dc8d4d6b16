/** /api/agents (and GET /api/files/{id}): agents, their documents, web URLs and custom tools ('user' auth). */
import {
  AGENT_FILE_MULTIPART_MAX_BYTES,
  AGENT_LIMITS,
  addUrlsRequest,
  agentMessages,
  createAgentRequest,
  fileUploadRequest,
  toolRequest,
  updateAgentRequest,
  updateUrlRequest,
} from '../contract/agents.js';
import { agentFileShareRequest, mediaMessages } from '../contract/whatsapp-media.js';
import { agentService } from '../composition/agents.js';
import { ValidationError } from '../domain/errors.js';
import { httpGroup, parseWith, type RouteTable } from '../http/handler.js';
import { readMultipartFiles } from '../http/multipart.js';
import { recordRouteActivity } from '../composition/activity.js';

export const routes: RouteTable = {
  // Agents
  'GET /api/agents': async (req) => ({ data: await agentService().list(req.userId()) }),
  'POST /api/agents': async (req) => {
    const userId = req.userId();
    const input = parseWith(createAgentRequest, req.json());
    return { status: 201, message: agentMessages.created, data: await agentService().create(userId, input) };
  },
  'GET /api/agents/{id}': async (req) => ({ data: await agentService().get(req.userId(), req.params.id ?? '') }),
  'PUT /api/agents/{id}': async (req) => {
    const userId = req.userId();
    const input = parseWith(updateAgentRequest, req.json());
    return { message: agentMessages.updated, data: await agentService().update(userId, req.params.id ?? '', input) };
  },
  'DELETE /api/agents/{id}': async (req) => {
    await agentService().remove(req.userId(), req.params.id ?? '');
    return { message: agentMessages.deleted };
  },
  'POST /api/agents/{id}/enable': async (req) => ({
    message: agentMessages.activated,
    data: await agentService().setEnabled(req.userId(), req.params.id ?? '', true),
  }),
  'POST /api/agents/{id}/disable': async (req) => ({
    message: agentMessages.deactivated,
    data: await agentService().setEnabled(req.userId(), req.params.id ?? '', false),
  }),

  // Files
  'GET /api/agents/{id}/files': async (req) => ({ data: await agentService().listFiles(req.userId(), req.params.id ?? '') }),
  'POST /api/agents/{id}/files': async (req) => {
    const userId = req.userId();
    const { files, tooMany } = await readMultipartFiles(req.headers, req.rawBody, 'files', {
      maxBytes: AGENT_FILE_MULTIPART_MAX_BYTES,
      maxFiles: AGENT_LIMITS.filesPerRequest,
    });
    if (tooMany) throw new ValidationError(agentMessages.tooManyFiles, 'files');
    const uploads = files.map((f) => ({ name: f.filename, mimeType: f.mimeType, bytes: f.bytes, truncated: f.truncated }));
    const data = await agentService().uploadDirect(userId, req.params.id ?? '', uploads);
    return { status: 201, message: agentMessages.filesUploaded(data.length), data };
  },
  'POST /api/agents/{id}/files/uploads': async (req) => {
    const userId = req.userId();
    const input = parseWith(fileUploadRequest, req.json());
    return { status: 201, data: await agentService().requestUploads(userId, req.params.id ?? '', input) };
  },
  'POST /api/agents/{id}/files/{fileId}/complete': async (req) => ({
    message: agentMessages.filesUploaded(1),
    data: await agentService().completeUpload(req.userId(), req.params.id ?? '', req.params.fileId ?? ''),
  }),
  // Issue 34: a file that failed (an outage past the retries, a refused key now fixed) read again.
  'POST /api/agents/{id}/files/{fileId}/reprocess': async (req) => ({
    message: agentMessages.reprocessing,
    data: await agentService().reprocessFile(req.userId(), req.params.id ?? '', req.params.fileId ?? ''),
  }),
  // Issue 31: "can be sent to customers" (the agent's send_file tool).
  'PATCH /api/agents/{id}/files/{fileId}': async (req) => {
    const userId = req.userId();
    const { shareable } = parseWith(agentFileShareRequest, req.json());
    const data = await agentService().setFileShareable(userId, req.params.id ?? '', req.params.fileId ?? '', shareable);
    return { message: shareable ? mediaMessages.fileShareableOn : mediaMessages.fileShareableOff, data };
  },
  'DELETE /api/agents/{id}/files/{fileId}': async (req) => {
    await agentService().deleteFile(req.userId(), req.params.id ?? '', req.params.fileId ?? '');
    return { message: agentMessages.fileDeleted };
  },
  'GET /api/files/{id}': async (req) => ({ data: await agentService().download(req.userId(), req.params.id ?? '') }),

  // Web URLs
  'GET /api/agents/{id}/urls': async (req) => ({ data: await agentService().listUrls(req.userId(), req.params.id ?? '') }),
  'POST /api/agents/{id}/urls': async (req) => {
    const userId = req.userId();
    const { urls } = parseWith(addUrlsRequest, req.json());
    const data = await agentService().addUrls(userId, req.params.id ?? '', urls);
    return { status: 201, message: agentMessages.urlsAdded(data.length), data };
  },
  'PUT /api/agents/{id}/urls/{urlId}': async (req) => {
    const userId = req.userId();
    const input = parseWith(updateUrlRequest, req.json());
    return { message: agentMessages.urlRefreshing, data: await agentService().refreshUrl(userId, req.params.id ?? '', req.params.urlId ?? '', input) };
  },
  'POST /api/agents/{id}/urls/{urlId}/reprocess': async (req) => ({
    message: agentMessages.reprocessing,
    data: await agentService().reprocessUrl(req.userId(), req.params.id ?? '', req.params.urlId ?? ''),
  }),
  'DELETE /api/agents/{id}/urls/{urlId}': async (req) => {
    await agentService().deleteUrl(req.userId(), req.params.id ?? '', req.params.urlId ?? '');
    return { message: agentMessages.urlDeleted };
  },

  // Custom tools
  'GET /api/agents/{id}/tools': async (req) => ({ data: await agentService().listTools(req.userId(), req.params.id ?? '') }),
  'POST /api/agents/{id}/tools': async (req) => {
    const userId = req.userId();
    const input = parseWith(toolRequest, req.json());
    return { status: 201, message: agentMessages.toolCreated, data: await agentService().createTool(userId, req.params.id ?? '', input) };
  },
  'PUT /api/agents/{id}/tools/{toolId}': async (req) => {
    const userId = req.userId();
    const input = parseWith(toolRequest, req.json());
    return {
      message: agentMessages.toolUpdated,
      data: await agentService().updateTool(userId, req.params.id ?? '', req.params.toolId ?? '', input),
    };
  },
  'DELETE /api/agents/{id}/tools/{toolId}': async (req) => {
    await agentService().deleteTool(req.userId(), req.params.id ?? '', req.params.toolId ?? '');
    return { message: agentMessages.toolDeleted };
  },
};

export const handler = httpGroup(routes, { activity: recordRouteActivity });
