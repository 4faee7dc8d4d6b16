/**
 * /api/contacts: list (with tag and custom-field filters, and their facets), CRUD, bulk delete and
 * tag, stats, CSV import and export, import from WhatsApp; and a voice call's
 * extracted contact data applied to a contact (GET …/apply-contact/preview, POST
 * /api/voice-conversations/{id}/apply-contact with the chosen fields, POST …/apply-contact/undo)
 * ('user' auth, DynamoDB only).
 */
import {
  contactMessages,
  createContactRequest,
  exportContactsQuery,
  importContactsRequest,
  listContactsQuery,
  updateContactRequest,
} from '../contract/contacts.js';
import { bulkDeleteContactsRequest, bulkTagContactsRequest, contactBulkMessages } from '../contract/contacts-bulk.js';
import { applyContactMessages, applyContactRequest, undoApplyContactRequest } from '../contract/apply-contact.js';
import { voiceMessages } from '../contract/voice-messages.js';
// The texts only: contract/whatsapp.ts's schemas are not this function's.
import { whatsappMessages } from '../contract/whatsapp-messages.js';
import { applyCallContact } from '../composition/call-contacts.js';
import { contactService } from '../composition/contacts.js';
import { contactTimeline } from '../composition/contact-timeline.js';
import { contactTimelineQuery } from '../contract/contact-timeline.js';
import { httpGroup, parseWith, type RouteTable } from '../http/handler.js';
import { apiKeyGuard } from '../http/api-key-auth.js';
import { recordRouteActivity } from '../composition/activity.js';

export const routes: RouteTable = {
  'GET /api/contacts': async (req) => {
    const userId = req.userId();
    const query = parseWith(listContactsQuery, req.query);
    const { data, ...extra } = await contactService().list(userId, query);
    return { data, extra };
  },
  'POST /api/contacts': async (req) => {
    const userId = req.userId();
    const input = parseWith(createContactRequest, req.json());
    const source = req.authType() === 'apiKey' ? 'api' : 'manual';
    return { status: 201, message: contactMessages.added, data: await contactService().create(userId, input, source) };
  },
  'GET /api/contacts/stats': async (req) => ({ data: await contactService().stats(req.userId()) }),
  'GET /api/contacts/facets': async (req) => ({ data: await contactService().facets(req.userId()) }),
  'POST /api/contacts/bulk-delete': async (req) => {
    const userId = req.userId();
    const { ids } = parseWith(bulkDeleteContactsRequest, req.json());
    return { message: contactBulkMessages.deleted, data: await contactService().bulkDelete(userId, ids) };
  },
  'POST /api/contacts/bulk-tag': async (req) => {
    const userId = req.userId();
    const input = parseWith(bulkTagContactsRequest, req.json());
    return { message: contactBulkMessages.tagged, data: await contactService().bulkTag(userId, input) };
  },
  'GET /api/contacts/export': async (req) => {
    const userId = req.userId();
    const query = parseWith(exportContactsQuery, req.query);
    const { csv, fileName } = await contactService().exportCsv(userId, query);
    return {
      raw: {
        statusCode: 200,
        headers: {
          'content-type': 'text/csv; charset=utf-8',
          'content-disposition': `attachment; filename="${fileName}"`,
          'cache-control': 'no-store',
        },
        body: csv,
      },
    };
  },
  'POST /api/contacts/import/preview': async (req) => {
    const userId = req.userId();
    const { csv } = parseWith(importContactsRequest, req.json());
    return { data: await contactService().previewImport(userId, csv) };
  },
  'POST /api/contacts/import': async (req) => {
    const userId = req.userId();
    const { csv } = parseWith(importContactsRequest, req.json());
    return { data: await contactService().runImport(userId, csv) };
  },
  'POST /api/contacts/import-whatsapp': async (req) => {
    const data = await contactService().importFromWhatsApp(req.userId());
    return { message: whatsappMessages.importDone(data.imported), data };
  },
  'GET /api/contacts/{id}': async (req) => ({ data: await contactService().get(req.userId(), req.params.id ?? '') }),
  'GET /api/contacts/{id}/timeline': async (req) => {
    const { limit } = parseWith(contactTimelineQuery, req.query);
    return { data: await contactTimeline().timeline(req.userId(), req.params.id ?? '', limit) };
  },
  'PUT /api/contacts/{id}': async (req) => {
    const userId = req.userId();
    const input = parseWith(updateContactRequest, req.json());
    return { message: contactMessages.updated, data: await contactService().update(userId, req.params.id ?? '', input) };
  },
  'DELETE /api/contacts/{id}': async (req) => {
    await contactService().remove(req.userId(), req.params.id ?? '');
    return { message: contactMessages.deleted };
  },
  'GET /api/voice-conversations/{id}/apply-contact/preview': async (req) => ({
    data: await applyCallContact().preview(req.userId(), req.params.id ?? ''),
  }),
  'POST /api/voice-conversations/{id}/apply-contact': async (req) => {
    const userId = req.userId();
    const { fields } = parseWith(applyContactRequest, req.json());
    return { message: voiceMessages.contactApplied, data: await applyCallContact().apply(userId, req.params.id ?? '', fields) };
  },
  'POST /api/voice-conversations/{id}/apply-contact/undo': async (req) => {
    const userId = req.userId();
    const { token } = parseWith(undoApplyContactRequest, req.json());
    return { message: applyContactMessages.undone, data: await applyCallContact().undo(userId, req.params.id ?? '', token) };
  },
};

export const handler = httpGroup(routes, { apiKeys: apiKeyGuard, activity: recordRouteActivity });
