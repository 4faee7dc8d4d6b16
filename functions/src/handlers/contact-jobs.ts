/**
 * /api/contacts/import-jobs and /api/contacts/export-jobs (issue 19): the contacts CSV import
 * and export as background jobs — presigned upload, preview with column mapping, the job and its
 * progress, the error report link, undo, the export link ('user' auth).
 */
import {
  contactJobMessages,
  createExportJobRequest,
  createImportJobRequest,
  importPreviewRequest,
  importUploadRequest,
  listImportJobsQuery,
} from '../contract/contact-jobs.js';
import { contactJobs } from '../composition/contact-jobs.js';
import { httpGroup, parseWith, type RouteTable } from '../http/handler.js';
import { recordRouteActivity } from '../composition/activity.js';

export const routes: RouteTable = {
  'POST /api/contacts/import-jobs/uploads': async (req) => {
    const input = parseWith(importUploadRequest, req.json());
    return { data: await contactJobs().requestUpload(req.userId(), input) };
  },
  'POST /api/contacts/import-jobs/preview': async (req) => {
    const input = parseWith(importPreviewRequest, req.json());
    return { data: await contactJobs().preview(req.userId(), input) };
  },
  'POST /api/contacts/import-jobs': async (req) => {
    const input = parseWith(createImportJobRequest, req.json());
    return { status: 202, message: contactJobMessages.importStarted, data: await contactJobs().createImport(req.userId(), input) };
  },
  'GET /api/contacts/import-jobs': async (req) => {
    const { cursor } = parseWith(listImportJobsQuery, req.query);
    const { items, ...extra } = await contactJobs().listImports(req.userId(), cursor);
    return { data: items, extra };
  },
  'GET /api/contacts/import-jobs/{id}': async (req) => ({ data: await contactJobs().getImport(req.userId(), req.params.id ?? '') }),
  'POST /api/contacts/import-jobs/{id}/undo': async (req) => ({
    status: 202,
    message: contactJobMessages.undoStarted,
    data: await contactJobs().undoImport(req.userId(), req.params.id ?? ''),
  }),
  'POST /api/contacts/export-jobs': async (req) => {
    const input = parseWith(createExportJobRequest, req.json() ?? {});
    return { status: 202, message: contactJobMessages.exportStarted, data: await contactJobs().createExport(req.userId(), input) };
  },
  'GET /api/contacts/export-jobs/{id}': async (req) => ({ data: await contactJobs().getExport(req.userId(), req.params.id ?? '') }),
};

export const handler = httpGroup(routes, { activity: recordRouteActivity });
