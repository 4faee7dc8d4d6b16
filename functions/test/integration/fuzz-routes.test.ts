/**
 * Route fuzzing (issue 14): property-based requests to EVERY route of the manifest through the
 * local gateway — random JSON, bodies shaped like the route's contract schema with boundary values,
 * malformed JSON, wrong content types, bodies up to ~10 MB, odd path parameters and query strings —
 * as the signed-in owner (a subscribed admin with real objects, so ids exist), unauthenticated,
 * and for webhooks unsigned or garbage-signed, and malformed multipart bodies (issue 28). Each
 * response must be < 500 and show no internals, and the stack must still serve after each case.
 *
 * Seeds are fixed per property (seedOf(route + property)), so a run is reproducible: a failure
 * prints its seed and counterexample. numRuns keep the file at a few minutes on 2 busy cores.
 * A route of the manifest without an entry in FUZZ fails the coverage test (declare its input).
 */
import { randomUUID } from 'node:crypto';
import { AdminAddUserToGroupCommand } from '@aws-sdk/client-cognito-identity-provider';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as z from 'zod/mini';
import {
  addUrlsRequest,
  answerUnansweredRequest,
  chatRequest,
  createAgentRequest,
  dismissUnansweredRequest,
  fileUploadRequest,
  knowledgeEntryRequest,
  toolRequest,
  updateAgentRequest,
  updateUrlRequest,
} from '../../src/contract/agents.js';
import { createApiKeyRequest } from '../../src/contract/api-keys.js';
import { acceptInvitationRequest, activityQuery, inviteRequest, roleChangeRequest, transferOwnershipRequest } from '../../src/contract/team.js';
import { inboxSettingsRequest } from '../../src/contract/inbox.js';
import { accountDeletionRequest, erasureRequest, optOutRequest, personRefRequest, privacySettingsRequest } from '../../src/contract/privacy.js';
import { defaultPrivacySettings } from '../../src/domain/privacy/settings.js';
import { listNotificationsQuery } from '../../src/contract/notifications.js';
import { pushSettingsRequest, pushSubscriptionRequest } from '../../src/contract/push.js';
import { sendTemplateRequest } from '../../src/contract/whatsapp-templates.js';
import { applyContactRequest, undoApplyContactRequest } from '../../src/contract/apply-contact.js';
import { contactTimelineQuery } from '../../src/contract/contact-timeline.js';
import { bulkDeleteContactsRequest, bulkTagContactsRequest } from '../../src/contract/contacts-bulk.js';
import { createExportJobRequest, createImportJobRequest, importPreviewRequest, importUploadRequest, listImportJobsQuery } from '../../src/contract/contact-jobs.js';
import { savedReplyRequest } from '../../src/contract/saved-replies.js';
import { agentFileShareRequest, attachmentUploadRequest, businessLocationRequest } from '../../src/contract/whatsapp-media.js';
import {
  availabilityQuery,
  bookingCreateRequest,
  bookingListQuery,
  bookingServiceRequest,
  bookingSettingsRequest,
  bookingStaffRequest,
  bookingUpdateRequest,
  calendarFeedQuery,
  calendarFeedRequest,
  WEEKDAYS,
  type CalendarFeed,
} from '../../src/contract/bookings.js';
import { googleCalendarCallbackQuery, googleCalendarSettingsRequest } from '../../src/contract/google-calendar.js';
import { gettingStartedUpdate } from '../../src/contract/getting-started.js';
import {
  googleAuthRequest,
  loginRequest,
  profileUpdateRequest,
  refreshTokenRequest,
  registerRequest,
  resetPasswordRequest,
  sendPasswordResetRequest,
  sendVerificationRequest,
  settingsRequest,
  updatePasswordRequest,
  type AuthSession,
} from '../../src/contract/auth.js';
import { cancelRequest, changePlanRequest, checkLimitRequest, checkoutRequest } from '../../src/contract/billing.js';
import { createContactRequest, exportContactsQuery, importContactsRequest, listContactsQuery, updateContactRequest } from '../../src/contract/contacts.js';
import { dashboardQuery } from '../../src/contract/dashboard.js';
import { chatgptAskRequest, chatgptSetupRequest, chatgptTestRequest, updateIntegrationRequest } from '../../src/contract/integrations.js';
import {
  adminAssignRequest,
  adminListQuery,
  adminRejectRequest,
  listCallsQuery,
  phoneRequestInput,
  twilioSetupRequest,
  VOICE_DEFAULTS,
  voiceSettingsRequest,
} from '../../src/contract/voice.js';
import {
  escalateRequest,
  humanReplyRequest,
  listConversationsQuery,
  listMessagesQuery,
  messageStatsQuery,
  overviewQuery,
  updateConversationRequest,
  whatsappSetupRequest,
} from '../../src/contract/whatsapp.js';
import { routes } from '../../src/routes.js';
import { validTool as toolExample } from '../support/agents-api.js';
import { api, post, provided } from '../support/api.js';
import { subscribedUser } from '../support/billing.js';
import {
  badAuthorization,
  boundaryPathSegment,
  boundaryQuery,
  boundaryValue,
  contentType,
  fieldsOf,
  FuzzStats,
  internalsIn,
  malformedBody,
  malformedMetaMessage,
  malformedMultipart,
  seedOf,
  send,
  shapedBody,
  stillServing,
  type FuzzRequest,
} from '../support/fuzz.js';
import { seedCall } from '../support/seed-calls.js';
import { deadLetters, drainQueues, testCognitoClient } from '../support/stack-clients.js';
import { createAnsweringAgent } from '../support/agents-api.js';
import {
  connectWhatsApp,
  graphSends,
  metaDelivery,
  newWamid,
  postWebhook,
  randomDigits,
  signMetaBody,
  textMessage,
  waCustomer,
} from '../support/whatsapp.js';
import { getItem, until } from '../support/api.js';

// ---------------------------------------------------------------------------------------------
// What each route takes besides its path parameters (a new route must be declared here)

type Encoding = 'json' | 'multipart' | 'twilio-form' | 'stripe' | 'whatsapp' | 'none';

interface FuzzSpec {
  /** The contract schema the handler parses the body with (its fields are mutated). */
  body?: z.ZodMiniType;
  /** A valid body: shaped inputs replace one or two of its fields with boundary values. */
  example?: Record<string, unknown>;
  /** The query schema (or its keys) the handler reads. */
  query?: z.ZodMiniType | readonly string[];
  /** Default 'json' when `body` is set, else 'none' (a body is still sent, it must be ignored or refused). */
  encoding?: Encoding;
  /** The multipart field name of the file. */
  field?: string;
}

const STRONG = 'Secret#123';
const json = (body: z.ZodMiniType, example: Record<string, unknown>): FuzzSpec => ({ body, example });
const none: FuzzSpec = {};
// The tool the agents tests create (a plain object: the fuzzer mutates copies of it).
const validTool = toolExample();
const settings = { name: 'Fuzz Owner', phoneNumber: '', language: 'en', timeZone: 'UTC' };
const chatgpt = { apiKey: 'sk-fuzz-0000', model: 'gpt-4o', maxTokens: 500, temperature: 0.7, systemPrompt: '', baseUrl: '' };
const whatsapp = { bearerToken: 'EAAFuzz', businessId: '1234567890', phoneId: '9876543210', phoneNumber: '+14155550123', appSecret: 'fuzz-secret' };
const twilio = { accountSid: `AC${'0123456789abcdef'.repeat(2)}`, authToken: 'fuzz-token', phoneNumber: '+14155550100' };
const voiceSettings = { ...VOICE_DEFAULTS };
// Bookings (issue 30): a clinic open round the clock, so the owner's booking and the examples' times are bookable.
const allDay = Object.fromEntries(WEEKDAYS.map((d) => [d, [{ start: '00:00', end: '24:00' }]]));
const bookingStaff = { name: 'Dra. García', kind: 'person', weeklyHours: allDay, closures: [{ from: '2026-12-24', to: '2026-12-26', reason: 'Navidad' }] };
/** A local date this many days ahead (the business's zone is near enough UTC for a whole-day opening). */
const daysAhead = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
const bookingSettings = {
  timeZone: 'Europe/Madrid',
  minNoticeMinutes: 120,
  maxAdvanceDays: 60,
  slotStepMinutes: 15,
  closures: [],
  remindersEnabled: true,
  reminderHours: 24,
  confirmationTemplate: null,
  reminderTemplate: null,
  emailOwner: false,
};

/** Keyed by "METHOD /path" (plain strings, so an entry can land before or after its route: both directions are checked below). */
const FUZZ: Record<string, FuzzSpec> = {
  'POST /api/send-verification': json(sendVerificationRequest, { email: 'fuzz@example.com', language: 'en' }),
  'POST /api/register': json(registerRequest, { name: 'Fuzz', email: 'fuzz@example.com', password: STRONG, verificationCode: 'ABCDEFGHJK' }),
  'POST /api/login': json(loginRequest, { email: 'fuzz@example.com', password: STRONG }),
  'POST /api/refresh-token': json(refreshTokenRequest, { refreshToken: 'not-a-refresh-token' }),
  'POST /api/google-auth': json(googleAuthRequest, { credential: 'not-a-google-id-token' }),
  'POST /api/send-password-reset': json(sendPasswordResetRequest, { email: 'fuzz@example.com' }),
  'POST /api/reset-password': json(resetPasswordRequest, { email: 'fuzz@example.com', resetCode: '0123456789', newPassword: STRONG }),
  'GET /api/me': none,
  // A wrong current password: the owner's password never changes.
  'POST /api/update-password': json(updatePasswordRequest, { currentPassword: 'Wrong#1234', newPassword: 'Secret#456' }),
  'POST /api/logout': none,
  'POST /api/settings': json(settingsRequest, settings),
  'GET /api/user/profile': none,
  'PUT /api/user/profile': json(profileUpdateRequest, settings),
  'POST /api/user/avatar': { encoding: 'multipart', field: 'avatar' },
  // Issue 31: the business location the agent sends (coordinates or a Google Maps link).
  'GET /api/user/business-location': none,
  'PUT /api/user/business-location': json(businessLocationRequest, { name: 'Clínica Dental Sonrisa', address: 'Calle de Alcalá 123, 28009 Madrid', coordinates: 'https://www.google.com/maps/place/@40.4237,-3.6717,17z' }),
  'DELETE /api/user/business-location': none,
  'GET /api/subscription/current': none,
  'GET /api/subscription/plans': none,
  'GET /api/subscription/analytics': none,
  'POST /api/subscription/check-limit': json(checkLimitRequest, { action: 'contacts', amount: 1 }),
  'POST /api/subscription/checkout': json(checkoutRequest, { plan: 'professional' }),
  'GET /api/subscription/verify-session/{id}': none,
  'PUT /api/subscription/plan': json(changePlanRequest, { plan: 'professional' }),
  'POST /api/subscription/cancel': json(cancelRequest, { immediately: false }),
  'POST /api/subscription/portal': none,
  'POST /api/webhooks/stripe': { encoding: 'stripe' },
  'GET /api/contacts': { query: listContactsQuery },
  'POST /api/contacts': json(createContactRequest, { name: 'Ann Example', phoneNumber: '+14155550123', email: 'ann@example.com', customFields: { company: 'Acme' } }),
  'GET /api/contacts/stats': none,
  'GET /api/contacts/facets': none,
  'POST /api/contacts/bulk-delete': json(bulkDeleteContactsRequest, { ids: ['0000000001abcdef'] }),
  'POST /api/contacts/bulk-tag': json(bulkTagContactsRequest, { ids: ['0000000001abcdef'], add: ['vip'], remove: ['lead'] }),
  'GET /api/contacts/export': { query: exportContactsQuery },
  'POST /api/contacts/import/preview': json(importContactsRequest, { csv: 'name,phone,email\nBea,+14155550124,bea@example.com\n' }),
  'POST /api/contacts/import': json(importContactsRequest, { csv: 'name,phone,email\nBea,+14155550124,bea@example.com\n' }),
  'POST /api/contacts/import-whatsapp': none,
  'POST /api/contacts/import-jobs/uploads': json(importUploadRequest, { fileName: 'pacientes.csv', size: 1024 }),
  'POST /api/contacts/import-jobs/preview': json(importPreviewRequest, { uploadId: '0123456789abcdef0123456789abcdef', delimiter: ';', encoding: 'windows-1252' }),
  'POST /api/contacts/import-jobs': json(createImportJobRequest, { uploadId: '0123456789abcdef0123456789abcdef', columns: [{ field: 'name' }, { field: 'phone' }, { field: 'custom', name: 'Ciudad' }] }),
  'GET /api/contacts/import-jobs': { query: listImportJobsQuery },
  'GET /api/contacts/import-jobs/{id}': none,
  'POST /api/contacts/import-jobs/{id}/undo': none,
  'POST /api/contacts/export-jobs': json(createExportJobRequest, { delimiter: ';' }),
  'GET /api/contacts/export-jobs/{id}': none,
  'GET /api/contacts/{id}': none,
  'PUT /api/contacts/{id}': json(updateContactRequest, { name: 'Ann B', email: 'annb@example.com', metadata: { notes: 'vip', tags: ['vip'] } }),
  'GET /api/contacts/{id}/timeline': { query: contactTimelineQuery },
  'DELETE /api/contacts/{id}': none,
  'GET /api/integrations': none,
  'POST /api/integrations/chatgpt/setup': json(chatgptSetupRequest, chatgpt),
  'POST /api/integrations/chatgpt/test': json(chatgptTestRequest, chatgpt),
  'POST /api/integrations/chatgpt/ask': json(chatgptAskRequest, { text: 'Answer questions about orders', promptId: 'improve-description', maxLength: 200 }),
  'POST /api/integrations/whatsapp-business/setup': json(whatsappSetupRequest, whatsapp),
  'POST /api/integrations/whatsapp-business/test': json(whatsappSetupRequest, whatsapp),
  'POST /api/integrations/twilio-voice/setup': json(twilioSetupRequest, twilio),
  'POST /api/integrations/twilio-voice/test': json(twilioSetupRequest, twilio),
  'GET /api/integrations/{type}': none,
  'PUT /api/integrations/{type}': json(updateIntegrationRequest, { isActive: true, settings: {} }),
  'DELETE /api/integrations/{type}': none,
  'GET /api/agents': none,
  'POST /api/agents': json(createAgentRequest, { name: 'Fuzz agent' }),
  'POST /api/agents/chat': json(chatRequest, { message: 'Hello', messages: [{ role: 'user', content: 'Hi' }] }),
  'GET /api/agents/{id}': none,
  'PUT /api/agents/{id}': json(updateAgentRequest, { name: 'Fuzz agent', description: 'Helps', objective: 'Answer', priority: 5, enabled: true }),
  'DELETE /api/agents/{id}': none,
  'POST /api/agents/{id}/enable': none,
  'POST /api/agents/{id}/disable': none,
  'POST /api/agents/{id}/chat': json(chatRequest, { message: 'Hello', messages: [] }),
  'GET /api/agents/{id}/files': none,
  'POST /api/agents/{id}/files': { encoding: 'multipart', field: 'files' },
  'POST /api/agents/{id}/files/uploads': json(fileUploadRequest, { files: [{ name: 'notes.txt', size: 12, type: 'text/plain' }] }),
  'POST /api/agents/{id}/files/{fileId}/complete': none,
  'POST /api/agents/{id}/files/{fileId}/reprocess': none,
  'DELETE /api/agents/{id}/files/{fileId}': none,
  // Issue 31: "can be sent to customers".
  'PATCH /api/agents/{id}/files/{fileId}': json(agentFileShareRequest, { shareable: true }),
  'GET /api/files/{id}': none,
  'GET /api/agents/{id}/urls': none,
  'POST /api/agents/{id}/urls': json(addUrlsRequest, { urls: ['https://example.com/help'] }),
  'PUT /api/agents/{id}/urls/{urlId}': json(updateUrlRequest, { link: 'https://example.com/other' }),
  'POST /api/agents/{id}/urls/{urlId}/reprocess': none,
  'DELETE /api/agents/{id}/urls/{urlId}': none,
  'GET /api/agents/{id}/tools': none,
  'POST /api/agents/{id}/tools': json(toolRequest, validTool),
  'PUT /api/agents/{id}/tools/{toolId}': json(toolRequest, validTool),
  'DELETE /api/agents/{id}/tools/{toolId}': none,
  'GET /api/agents/{id}/entries': none,
  'POST /api/agents/{id}/entries': json(knowledgeEntryRequest, { question: '¿Hay parking?', answer: 'Sí, gratuito.' }),
  'PUT /api/agents/{id}/entries/{entryId}': json(knowledgeEntryRequest, { question: '¿Hay parking?', answer: 'Sí, gratuito.' }),
  'DELETE /api/agents/{id}/entries/{entryId}': none,
  'GET /api/agents/{id}/unanswered': none,
  'POST /api/agents/{id}/unanswered/answer': json(answerUnansweredRequest, { ids: ['01JABCDEFGHJKMNPQRSTVWXYZ0'], question: '¿Hay parking?', answer: 'Sí.' }),
  'POST /api/agents/{id}/unanswered/dismiss': json(dismissUnansweredRequest, { ids: ['01JABCDEFGHJKMNPQRSTVWXYZ0'] }),
  'GET /api/webhooks/whatsapp-business/{integrationId}': { query: ['hub.mode', 'hub.verify_token', 'hub.challenge'], encoding: 'none' },
  'POST /api/webhooks/whatsapp-business/{integrationId}': { encoding: 'whatsapp' },
  'GET /api/conversations/overview': { query: overviewQuery },
  'GET /api/conversations/stats': none,
  'GET /api/conversations': { query: listConversationsQuery },
  'GET /api/conversations/{id}': none,
  'PUT /api/conversations/{id}': json(updateConversationRequest, { status: 'closed', notes: 'done' }),
  'DELETE /api/conversations/{id}': none,
  'POST /api/conversations/{id}/escalate': json(escalateRequest, { reason: 'Needs a person' }),
  // With an attachment (issue 31): shaped bodies also drop it (a text reply) or the text (the file alone).
  'POST /api/conversations/{id}/messages': json(humanReplyRequest, { text: 'Le envío el presupuesto', attachment: { uploadId: '01JABCDEFGHJKMNPQRSTVWXYZ0' } }),
  'POST /api/conversations/{id}/attachments': json(attachmentUploadRequest, { fileName: 'presupuesto ortodoncia (Dra. Pérez).pdf', mimeType: 'application/pdf', size: 120_000 }),
  'POST /api/conversations/{id}/resume-ai': none,
  'POST /api/conversations/answer-waiting': none,
  'POST /api/conversations/{id}/answer-waiting': none,
  'GET /api/inbox-settings': none,
  'PUT /api/inbox-settings': json(inboxSettingsRequest, { aiResumeAfterHours: 12, alertByEmail: true, alertWhatsappNumber: '612 345 678' }),
  'GET /api/notifications': { query: listNotificationsQuery },
  'POST /api/notifications/read-all': none,
  'POST /api/notifications/{id}/read': none,
  'GET /api/push/public-key': none,
  'GET /api/push/devices': none,
  'POST /api/push/devices': json(pushSubscriptionRequest, {
    endpoint: 'https://fcm.googleapis.com/fcm/send/fuzz-device',
    expirationTime: null,
    keys: { p256dh: `B${'A'.repeat(86)}`, auth: 'A'.repeat(22) },
    label: 'Móvil',
  }),
  'DELETE /api/push/devices/{id}': none,
  'POST /api/push/devices/{id}/test': none,
  'GET /api/push/settings': none,
  'PUT /api/push/settings': json(pushSettingsRequest, { escalations: true, waiting: false }),
  'POST /api/conversations/{id}/template': json(sendTemplateRequest, { name: 'recordatorio_cita', language: 'es', parameters: ['Lucía', 'martes'] }),
  'GET /api/whatsapp/templates': none,
  'GET /api/messages': { query: listMessagesQuery },
  'GET /api/messages/stats': { query: messageStatsQuery },
  'GET /api/messages/latest': { query: ['limit'] },
  'GET /api/messages/{id}': none,
  'POST /api/messages/{id}/retry': none,
  'DELETE /api/messages/{id}': none,
  'POST /api/webhooks/twilio/{userId}/voice': { encoding: 'twilio-form' },
  'POST /api/webhooks/twilio/{userId}/voice/gather': { encoding: 'twilio-form', query: ['call', 'agent', 'turn', 'silences'] },
  'POST /api/webhooks/twilio/{userId}/voice/status': { encoding: 'twilio-form' },
  'POST /api/webhooks/twilio/{userId}/voice/recording': { encoding: 'twilio-form' },
  'POST /api/webhooks/twilio/{userId}/voice/relay-action': { encoding: 'twilio-form', query: ['call'] },
  'GET /api/voice-settings': none,
  'PUT /api/voice-settings': json(voiceSettingsRequest, voiceSettings),
  'POST /api/voice-settings/reset': none,
  'POST /api/voice-settings/request-phone': json(phoneRequestInput, { notes: 'A Madrid number please' }),
  'DELETE /api/voice-settings/request-phone': none,
  'GET /api/voice-settings/webhook-secret': none,
  'POST /api/voice-settings/webhook-secret/rotate': none,
  'GET /api/voice-conversations': { query: listCallsQuery },
  'GET /api/voice-conversations/{id}': none,
  'GET /api/voice-conversations/{id}/recording': none,
  'GET /api/voice-conversations/{id}/apply-contact/preview': none,
  'POST /api/voice-conversations/{id}/apply-contact': json(applyContactRequest, { fields: ['email', 'web'] }),
  'POST /api/voice-conversations/{id}/resend-summary': none,
  'POST /api/voice-conversations/{id}/apply-contact/undo': json(undoApplyContactRequest, { token: 'AAAAAAAAAAAAAAAAAAAAAAAA' }),
  'GET /api/admin/phone-requests': { query: adminListQuery },
  'POST /api/admin/phone-requests/{userId}/approve': none,
  'POST /api/admin/phone-requests/{userId}/reject': json(adminRejectRequest, { reason: 'Not now' }),
  'POST /api/admin/phone-requests/{userId}/assign': json(adminAssignRequest, { number: '+14155550199' }),
  'GET /api/dashboard': { query: dashboardQuery },
  'GET /api/dashboard/voice-trends': none,
  'GET /api/dashboard/getting-started': none,
  'PUT /api/dashboard/getting-started': json(gettingStartedUpdate, { hidden: true }),
  'GET /api/api-keys': none,
  'POST /api/api-keys': json(createApiKeyRequest, { name: 'Fuzz key' }),
  'PUT /api/api-keys/{id}/regenerate': none,
  'DELETE /api/api-keys/{id}': none,
  // The team (issue 32): the fuzz owner is alone in their account (invitations to made-up addresses, refusals otherwise).
  'GET /api/team': none,
  'POST /api/team/invitations': json(inviteRequest, { email: 'lucia.martin@example.com', role: 'agent' }),
  'DELETE /api/team/invitations/{id}': none,
  'POST /api/team/invitations/{id}/resend': none,
  'PUT /api/team/members/{id}/role': json(roleChangeRequest, { role: 'admin' }),
  'DELETE /api/team/members/{id}': none,
  'POST /api/team/leave': none,
  'POST /api/team/ownership': json(transferOwnershipRequest, { memberId: '0b4e8a2c-1f7d-4c3e-9a6b-2d5f8e1c7a90' }),
  'GET /api/team/activity': { query: activityQuery },
  'GET /api/invitations/{token}': none,
  'POST /api/invitations/accept': json(acceptInvitationRequest, { token: 'A'.repeat(43) }),
  // Issue 33: a person's lookup, erasure and export (a number nobody has: 404, never a 5xx).
  'POST /api/privacy/people/lookup': json(personRefRequest, { phoneNumber: '612 34 56 78' }),
  'POST /api/privacy/erasures': json(erasureRequest, { phoneNumber: '612 34 56 78', confirmation: 'BORRAR' }),
  'POST /api/privacy/exports': json(personRefRequest, { phoneNumber: '+34 612 34 56 78' }),
  'GET /api/privacy/jobs': { query: ['cursor'] },
  'GET /api/privacy/jobs/{id}': none,
  'GET /api/privacy/settings': none,
  'PUT /api/privacy/settings': json(privacySettingsRequest, { ...defaultPrivacySettings('ES') }),
  'PUT /api/privacy/opt-out': json(optOutRequest, { phoneNumber: '612 34 56 78', optedOut: true }),
  // One letter short of ELIMINAR on purpose: a shaped body keeps the other fields, so a valid example would delete the fuzz owner's account mid-run.
  'POST /api/privacy/account-deletion': json(accountDeletionRequest, { confirmation: 'ELIMINA' }),
  'GET /api/saved-replies': none,
  'POST /api/saved-replies': json(savedReplyRequest, { title: 'Cita médica', text: 'Su cita está confirmada.' }),
  'GET /api/saved-replies/{id}': none,
  'PUT /api/saved-replies/{id}': json(savedReplyRequest, { title: 'Cita médica', text: 'Su cita está confirmada.' }),
  'DELETE /api/saved-replies/{id}': none,
  'GET /api/bookings/settings': none,
  'PUT /api/bookings/settings': json(bookingSettingsRequest, bookingSettings),
  'GET /api/bookings/services': none,
  // Getters: the examples name the owner's real staff and service (made in makeOwner).
  'POST /api/bookings/services': { body: bookingServiceRequest, get example() { return bookingService(); } },
  'GET /api/bookings/services/{id}': none,
  'PUT /api/bookings/services/{id}': { body: bookingServiceRequest, get example() { return bookingService(); } },
  'DELETE /api/bookings/services/{id}': none,
  'GET /api/bookings/staff': none,
  'POST /api/bookings/staff': json(bookingStaffRequest, bookingStaff),
  'GET /api/bookings/staff/{id}': none,
  'PUT /api/bookings/staff/{id}': json(bookingStaffRequest, bookingStaff),
  'DELETE /api/bookings/staff/{id}': none,
  'GET /api/bookings/availability': { query: availabilityQuery },
  'GET /api/bookings': { query: bookingListQuery },
  'POST /api/bookings': { body: bookingCreateRequest, get example() { return bookingCreate(); } },
  'GET /api/bookings/{id}': none,
  'PATCH /api/bookings/{id}': json(bookingUpdateRequest, { start: `${daysAhead(9)}T11:00`, notes: 'Cambiada a las 11' }),
  'POST /api/bookings/{id}/cancel': none,
  'GET /api/bookings/{id}/messages': none,
  // The owner's own calendar (issue 30). The business's feed is rotated by POST; the public feed is
  // read with the staff member's token (made in makeOwner), so it stays valid while POST runs.
  'GET /api/bookings/calendar-feed': none,
  'POST /api/bookings/calendar-feed': json(calendarFeedRequest, { staffId: null }),
  'DELETE /api/bookings/calendar-feed': { query: calendarFeedQuery },
  'GET /api/calendar-feeds/{token}': none,
  // The owner is connected to the fake Google (makeOwner): settings name its real calendars and staff.
  'GET /api/integrations/google-calendar': none,
  'PUT /api/integrations/google-calendar': { body: googleCalendarSettingsRequest, get example() { return googleSettings(); } },
  'DELETE /api/integrations/google-calendar': none,
  'POST /api/integrations/google-calendar/connect': none,
  'GET /api/integrations/google-calendar/callback': { query: googleCalendarCallbackQuery },
};

function googleSettings(): Record<string, unknown> {
  const calendar = owner?.ids.googleCalendar?.[0] ?? '';
  return { businessCalendarIds: [calendar], eventsCalendarId: calendar, staff: [{ staffId: owner?.ids.staff?.[0] ?? '', googleCalendarIds: [calendar] }] };
}

function bookingService(): Record<string, unknown> {
  return { name: 'Limpieza dental', durationMinutes: 30, bufferAfterMinutes: 10, priceCents: 4500, staffIds: owner?.ids.staff ?? [], bookableByAgent: true };
}
function bookingCreate(): Record<string, unknown> {
  return { serviceId: owner?.ids.service?.[0] ?? '', staffId: owner?.ids.staff?.[0] ?? '', start: `${daysAhead(8)}T10:30`, customer: { name: 'Lucía Fernández', phone: '+34 612 345 678' }, notes: 'Primera visita' };
}

/**
 * 5xx the fuzzer finds in areas other engineers are fixing right now (issue 14). Each entry names
 * its finding; remove it when that fix lands. A match is counted and listed, not failed.
 */
const KNOWN_5XX: { finding: string; route: string; when?: (req: FuzzRequest) => boolean }[] = [];

/**
 * Findings fixed at their root, replayed deterministically (each failed before its fix): the
 * request, the status and the message expected now.
 */
const FIXED_CASES: { finding: string; method: string; path: (o: Owner) => string; body: unknown; status: number; message: string }[] = [
  // Cognito (cognito-local answers an HTML 413 page the SDK cannot parse) got values of any size.
  { finding: 'refresh token of 500 KB', method: 'POST', path: () => '/api/refresh-token', body: { refreshToken: 'x'.repeat(500_000) }, status: 400, message: 'Refresh token is invalid' },
  {
    finding: 'current password of 500 KB',
    method: 'POST',
    path: () => '/api/update-password',
    body: { currentPassword: 'x'.repeat(500_000), newPassword: 'Secret#456' },
    status: 400,
    message: 'Password must be 256 characters or less',
  },
  // An admin's {userId} went into a DynamoDB key as is (ValidationException: key over 2048 bytes).
  ...(['approve', 'reject', 'assign'] as const).map((action) => ({
    finding: `admin ${action} of a 5,000-character user id`,
    method: 'POST',
    path: () => `/api/admin/phone-requests/${'a'.repeat(5_000)}/${action}`,
    body: action === 'assign' ? { number: '+14155550199' } : {},
    status: 404,
    message: 'No phone number request found',
  })),
  // The chat read an agent by any {id}: 1,000 emoji made a key DynamoDB refuses.
  { finding: 'agent chat with a 1,000-emoji agent id', method: 'POST', path: () => `/api/agents/${encodeURIComponent('😀'.repeat(1_000))}/chat`, body: { message: 'Hello' }, status: 404, message: 'Agent not found' },
  // A zero-width space survives trim() and made the Authorization header throw: 502 'could not be reached'.
  ...(['setup', 'test'] as const).map((action) => ({
    finding: `ChatGPT ${action} with an API key of zero-width characters`,
    method: 'POST',
    path: () => `/api/integrations/chatgpt/${action}`,
    body: { ...chatgpt, apiKey: 'sk-\u200B\u200C\u200D' },
    status: 400,
    message: 'API key may only contain letters, digits and symbols, without spaces',
  })),
  ...(['setup', 'test'] as const).map((action) => ({
    finding: `WhatsApp ${action} with a bearer token holding a zero-width space and an emoji`,
    method: 'POST',
    path: () => `/api/integrations/whatsapp-business/${action}`,
    body: { ...whatsapp, bearerToken: 'EAA\u200B😀' },
    status: 400,
    message: 'Bearer token may only contain letters, digits and symbols, without spaces',
  })),
  // Unbounded values that reached Cognito or the JWT verifier (no 5xx seen, bounded all the same).
  { finding: 'login password of 500 KB', method: 'POST', path: () => '/api/login', body: { email: 'ana@example.com', password: 'x'.repeat(500_000) }, status: 400, message: 'Password must be 256 characters or less' },
  { finding: 'Google credential of 500 KB', method: 'POST', path: () => '/api/google-auth', body: { credential: 'x'.repeat(500_000) }, status: 400, message: 'Google credential is invalid' },
  // A non-ASCII header value was stored, then made every call of the tool throw in fetch.
  {
    finding: 'tool header value with non-ASCII characters',
    method: 'POST',
    path: (o) => `/api/agents/${o.ids.agent?.[0] ?? ''}/tools`,
    body: { ...validTool, name: 'header_check', headerKey: 'Authorization', headerValue: 'Bearer contraseña😀' },
    status: 400,
    message: 'Header value may contain only printable ASCII characters',
  },
];

// ---------------------------------------------------------------------------------------------
// The owner and their objects

interface Owner {
  token: string;
  userId: string;
  email: string;
  sessionId: string;
  ids: Record<string, string[]>;
}

let owner: Owner;
const stats = new FuzzStats();

async function makeOwner(): Promise<Owner> {
  const sub = await subscribedUser('professional');
  const cognito = testCognitoClient();
  try {
    await cognito.send(new AdminAddUserToGroupCommand({ UserPoolId: provided('userPoolId'), Username: sub.user.email, GroupName: 'admin' }));
  } finally {
    cognito.destroy();
  }
  const login = await post<AuthSession>('/api/login', { email: sub.user.email, password: sub.user.password });
  if (login.status !== 200 || !login.body.data) throw new Error(`login failed: ${login.status}`);
  // Access tokens live 5 minutes (issue 28) and a deep run (FUZZ_SCALE) takes longer: the owner's
  // is renewed every 4 minutes, as the app does, so late routes are still fuzzed signed in.
  let token = login.body.data.token;
  const { refreshToken } = login.body.data;
  const renew = () =>
    post<{ token: string }>('/api/refresh-token', { refreshToken })
      .then((res) => {
        if (res.status === 200 && res.body.data?.token) token = res.body.data.token;
      })
      .catch(() => undefined);
  setInterval(() => void renew(), 4 * 60_000).unref();
  const must = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await api<T>(method, path, { token, body });
    if (res.status >= 300 || res.body.data === undefined) throw new Error(`${method} ${path}: ${res.status} ${res.body.message}`);
    return res.body.data;
  };
  const agent = await must<{ _id: string }>('POST', '/api/agents', { name: 'Fuzz agent' });
  const tool = await must<{ _id: string }>('POST', `/api/agents/${agent._id}/tools`, validTool);
  const url = await must<{ _id: string }[]>('POST', `/api/agents/${agent._id}/urls`, { urls: ['https://example.com/help'] });
  const contact = await must<{ _id: string }>('POST', '/api/contacts', { name: 'Ann Example', phoneNumber: '+14155550123' });
  const key = await must<{ apiKey: { _id: string } }>('POST', '/api/api-keys', { name: 'Fuzz key' });
  const savedReply = await must<{ _id: string }>('POST', '/api/saved-replies', { title: 'Fuzz reply', text: 'Hola' });
  const staff = await must<{ _id: string }>('POST', '/api/bookings/staff', bookingStaff);
  const service = await must<{ _id: string }>('POST', '/api/bookings/services', { name: 'Revisión', durationMinutes: 30, staffIds: [staff._id] });
  const booking = await must<{ _id: string }>('POST', '/api/bookings', {
    serviceId: service._id,
    staffId: staff._id,
    start: `${daysAhead(7)}T09:00`,
    customer: { name: 'Álvaro Núñez', phone: '+34 612 345 679' },
  });
  // A staff member's feed: its token is the real {token} of the public feed.
  const feed = await must<CalendarFeed>('POST', '/api/bookings/calendar-feed', { staffId: staff._id });
  const feedToken = feed.url?.split('/').pop() ?? '';
  const googleCalendar = await connectGoogle(token);
  const call = await seedCall(sub.userId);
  const conversation = await whatsappConversation(token);
  return {
    get token() {
      return token;
    },
    userId: sub.userId,
    email: sub.user.email,
    sessionId: sub.sessionId,
    ids: {
      agent: [agent._id],
      tool: [tool._id],
      url: url.map((u) => u._id),
      contact: [contact._id],
      apiKey: [key.apiKey._id],
      savedReply: [savedReply._id],
      staff: [staff._id],
      service: [service._id],
      booking: [booking._id],
      feedToken: [feedToken],
      googleCalendar: [googleCalendar],
      call: [call.id],
      conversation: [conversation],
      user: [sub.userId],
      session: [sub.sessionId],
      type: ['chatgpt', 'twilio-voice', 'whatsapp-business'],
    },
  };
}

/**
 * Connects the owner to the fake Google Calendar as the Integrations page does (connect → Google's
 * consent page, which consents at once → our callback), so the settings and disconnect routes are
 * fuzzed on a real connection. Answers the Google account's primary calendar.
 */
async function connectGoogle(token: string): Promise<string> {
  const email = `fuzz-${randomUUID().slice(0, 8)}@gmail.test`;
  const google = await fetch(`${provided('googleCalendarUrl')}/_test/accounts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, calendars: [] }) });
  if (!google.ok) throw new Error(`fake Google account: ${google.status}`);
  const connect = await api<{ url: string }>('POST', '/api/integrations/google-calendar/connect', { token });
  if (connect.status !== 200 || !connect.body.data) throw new Error(`Google connect: ${connect.status} ${connect.body.message}`);
  const consent = await fetch(connect.body.data.url, { redirect: 'manual' });
  const callback = new URL(consent.headers.get('location') ?? '');
  const back = await fetch(`${provided('apiUrl')}${callback.pathname}${callback.search}`, { redirect: 'manual' });
  if (!/googleCalendar=connected$/.test(back.headers.get('location') ?? '')) throw new Error(`Google callback: ${back.status} ${back.headers.get('location')}`);
  return email;
}

/**
 * A customer's WhatsApp conversation of the owner's (issue 31), so the reply (with an attachment)
 * and attachment routes are fuzzed past the 404 of an unknown id. Answers its id.
 */
async function whatsappConversation(token: string): Promise<string> {
  const wa = await connectWhatsApp(token);
  const body = metaDelivery(wa, { messages: [textMessage(waCustomer('Lucía Fernández', `34612${randomDigits(6)}`), 'Hola, ¿me mandáis el presupuesto?')] });
  const res = await postWebhook(wa.integrationId, body, signMetaBody(body, wa.appSecret));
  if (res.status !== 200) throw new Error(`WhatsApp delivery: ${res.status} ${res.text}`);
  return until(async () => (await api<{ _id: string }[]>('GET', '/api/conversations', { token })).body.data?.[0]?._id, "the owner's WhatsApp conversation", 30_000);
}

/** Real ids that fit a path parameter of a route (the owner's objects), or none. */
function realIds(path: string, param: string): string[] {
  const ids = owner.ids;
  if (param === 'toolId') return ids.tool ?? [];
  if (param === 'urlId') return ids.url ?? [];
  if (param === 'userId') return ids.user ?? [];
  if (param === 'type') return ids.type ?? [];
  if (param === 'token') return ids.feedToken ?? [];
  if (path.startsWith('/api/agents/')) return ids.agent ?? [];
  if (path.startsWith('/api/contacts/')) return ids.contact ?? [];
  if (path.startsWith('/api/api-keys/')) return ids.apiKey ?? [];
  if (path.startsWith('/api/saved-replies/')) return ids.savedReply ?? [];
  if (path.startsWith('/api/bookings/services/')) return ids.service ?? [];
  if (path.startsWith('/api/bookings/staff/')) return ids.staff ?? [];
  if (path.startsWith('/api/bookings/')) return ids.booking ?? [];
  if (path.startsWith('/api/voice-conversations/')) return ids.call ?? [];
  if (path.startsWith('/api/conversations/')) return ids.conversation ?? [];
  if (path.startsWith('/api/subscription/verify-session/')) return ids.session ?? [];
  return [];
}

// ---------------------------------------------------------------------------------------------
// Building and checking requests

type Route = (typeof routes)[number];
const keyOf = (r: Route) => `${r.method} ${r.path}`;
const paramsOf = (path: string) => [...path.matchAll(/\{(\w+)\+?\}/g)].map((m) => m[1] ?? '');
const hasBody = (r: Route) => !['GET', 'DELETE', 'HEAD'].includes(r.method);
const encodingOf = (spec: FuzzSpec): Encoding => spec.encoding ?? (spec.body ? 'json' : 'none');

function pathWith(route: Route, values: Record<string, string>): string {
  return route.path.replace(/\{(\w+)\+?\}/g, (_, name: string) => values[name] ?? encodeURIComponent(realIds(route.path, name)[0] ?? randomUUID()));
}

/** Path parameter values: the owner's real ids (most of the time) or boundary segments. */
function pathArb(route: Route): fc.Arbitrary<Record<string, string>> {
  const params = paramsOf(route.path);
  const entries = params.map((name) => {
    const real = realIds(route.path, name).map(encodeURIComponent);
    const value = real.length ? fc.oneof({ weight: 1, arbitrary: fc.constantFrom(...real) }, { weight: 2, arbitrary: boundaryPathSegment }) : boundaryPathSegment;
    return [name, value] as const;
  });
  return fc.record(Object.fromEntries(entries) as Record<string, fc.Arbitrary<string>>);
}

function queryKeys(spec: FuzzSpec): string[] {
  if (!spec.query) return [];
  return Array.isArray(spec.query) ? [...spec.query] : fieldsOf(spec.query as z.ZodMiniType);
}

/** The same body, encoded for the route (JSON, multipart, a Twilio form, a provider delivery). */
function encode(encoding: Encoding, value: unknown, field = 'files'): { body: string | Buffer; type: string } {
  if (encoding === 'twilio-form') {
    const entries = value && typeof value === 'object' && !Array.isArray(value) ? Object.entries(value) : [['CallSid', String(value)]];
    return { body: new URLSearchParams(entries.map(([k, v]): [string, string] => [String(k), typeof v === 'string' ? v : (JSON.stringify(v) ?? '')])).toString(), type: 'application/x-www-form-urlencoded' };
  }
  if (encoding === 'multipart') {
    const content = typeof value === 'string' ? value : JSON.stringify(value) ?? '';
    const boundary = 'fuzzboundary';
    const body = `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${content.slice(0, 300).replace(/["\r\n]/g, '')}.png"\r\nContent-Type: image/png\r\n\r\n${content}\r\n--${boundary}--\r\n`;
    return { body, type: `multipart/form-data; boundary=${boundary}` };
  }
  return { body: JSON.stringify(value) ?? 'null', type: 'application/json' };
}

function authHeaders(route: Route, as: 'owner' | 'anonymous'): Record<string, string> {
  if (as === 'anonymous' || route.auth === 'public' || route.auth === 'webhook') return {};
  return { authorization: `Bearer ${owner.token}` };
}

/** Provider signature headers, all wrong (the secrets are unknown to a caller). */
const garbageSignature = (encoding: Encoding): fc.Arbitrary<Record<string, string>> => {
  const values = fc.constantFrom('', 'garbage', 't=1,v1=00', `t=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}`, 't=99999999999999999999,v1=x', 'sha256=', `sha256=${'0'.repeat(64)}`, 'x'.repeat(5_000), '\u00e9');
  const header = encoding === 'stripe' ? 'stripe-signature' : encoding === 'whatsapp' ? 'x-hub-signature-256' : 'x-twilio-signature';
  return fc.option(values, { freq: 4 }).map((v) => (v === null ? {} : { [header]: v }));
};

async function check(route: Route, req: FuzzRequest): Promise<boolean> {
  return (await checked(route, req)).ok;
}

/** Sends one case: < 500, no internals in the body, and the stack still serving afterwards. */
async function checked(route: Route, req: FuzzRequest): Promise<{ ok: boolean; status: number }> {
  const res = await send(req);
  const key = keyOf(route);
  stats.record(key, res.status);
  const described = `${req.method} ${req.target.slice(0, 200)} → ${res.status} ${res.text.slice(0, 300)}`;
  // Every case, whatever its answer: a handler can answer and then crash the process (issue 28).
  if (!(await stillServing())) {
    stats.stopped.push(described);
    return { ok: false, status: res.status };
  }
  if (res.status >= 500 || res.status === 0) {
    const known = KNOWN_5XX.find((k) => k.route === key && (!k.when || k.when(req)));
    if (known) {
      stats.known.push(`${known.finding}: ${described}`);
      return { ok: true, status: res.status };
    }
    stats.fiveHundreds.push(described);
    return { ok: false, status: res.status };
  }
  // Binary answers (a recording) are not text to search.
  if (/^audio\/|^image\/|octet-stream/.test(res.contentType)) return { ok: true, status: res.status };
  const requestText = `${decodeSafe(req.target)} ${req.target} ${Buffer.isBuffer(req.body) ? req.body.toString('utf8') : (req.body ?? '')}`;
  const leaks = internalsIn(res.text, requestText);
  if (leaks.length) {
    stats.leaks.push(`${described} [${leaks.join(' | ')}]`);
    return { ok: false, status: res.status };
  }
  return { ok: true, status: res.status };
}

function decodeSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** One property over one route: runs with its own fixed seed, fails with the request that broke it. */
async function property<T>(route: Route, name: string, arb: fc.Arbitrary<T>, toRequest: (value: T) => FuzzRequest, numRuns: number): Promise<void> {
  let failing = '';
  const seed = seedOf(`${keyOf(route)} ${name}${SEED_SHIFT}`);
  const result = await fc.check(
    fc.asyncProperty(arb, async (value) => {
      const req = toRequest(value);
      const ok = await check(route, req);
      if (!ok) failing = `${req.method} ${req.target.slice(0, 300)} ${JSON.stringify(req.headers ?? {}).slice(0, 200)} body: ${String(req.body ?? '').slice(0, 300)}`;
      return ok;
    }),
    { seed, numRuns: numRuns * SCALE },
  );
  // fast-check's own report prints the whole counterexample (megabytes with the big values): a short one instead.
  if (result.failed) throw new Error(`'${name}' failed (seed ${seed}, path ${result.counterexamplePath}); smallest failing request: ${failing}\n${stats.fiveHundreds.at(-1) ?? ''}${stats.leaks.at(-1) ?? ''}${stats.stopped.at(-1) ?? ''}`.slice(0, 2_000));
}

/**
 * JSON, form and webhook routes that also get the malformed multipart bodies (the multipart
 * routes get them all): a multipart body where another parser is expected must be refused too.
 */
const MULTIPART_ON_OTHER_ROUTES = new Set([
  'POST /api/login',
  'POST /api/contacts',
  'PUT /api/user/profile',
  'POST /api/webhooks/stripe',
  'POST /api/webhooks/whatsapp-business/{integrationId}',
  'POST /api/webhooks/twilio/{userId}/voice',
]);

/** Every malformed multipart body once (no sampling: each is a known way to break busboy). */
async function malformedMultipartCases(route: Route, spec: FuzzSpec, base: (extra: { body: string | Buffer; type: string }) => FuzzRequest): Promise<void> {
  for (const { name, build } of malformedMultipart) {
    const { ok, status } = await checked(route, base(build(spec.field ?? 'files')));
    const last = stats.stopped.at(-1) ?? stats.fiveHundreds.at(-1) ?? stats.leaks.at(-1) ?? '';
    if (!ok) throw new Error(`malformed multipart '${name}' failed: ${last}`.slice(0, 2_000));
    // On a route that reads multipart the answer is a 400 that says what is wrong.
    if (encodingOf(spec) === 'multipart' && status !== 400) throw new Error(`malformed multipart '${name}' answered ${status}, not 400`);
  }
}

// ---------------------------------------------------------------------------------------------
// The properties, per route

/**
 * Runs per property and route. For a deeper, exploratory run: FUZZ_SCALE multiplies them and
 * FUZZ_SEED shifts every seed (e.g. FUZZ_SCALE=5 FUZZ_SEED=2 npx vitest run --project integration …).
 */
const SCALE = Math.max(1, Number(process.env.FUZZ_SCALE ?? 1) || 1);
const SEED_SHIFT = process.env.FUZZ_SEED ?? '';
const RUNS = { shaped: 12, json: 4, path: 8, query: 6, malformed: 5, anonymous: 3, webhook: 8 };

async function fuzzRoute(route: Route): Promise<void> {
  const key = keyOf(route);
  const spec = FUZZ[key] ?? none;
  const encoding = encodingOf(spec);
  const params = paramsOf(route.path);
  const fields = fieldsOf(spec.body);
  const example = spec.example ?? {};
  const withBody = hasBody(route);
  const base = (extra: { path?: Record<string, string>; query?: string; headers?: Record<string, string>; body?: string | Buffer; type?: string | undefined; as?: 'owner' | 'anonymous' }): FuzzRequest => {
    const headers: Record<string, string> = { ...authHeaders(route, extra.as ?? 'owner'), ...extra.headers };
    if (extra.type !== undefined) headers['content-type'] = extra.type;
    const target = `${pathWith(route, extra.path ?? {})}${extra.query !== undefined ? `?${extra.query}` : ''}`;
    return { method: route.method, target, headers, ...(extra.body !== undefined ? { body: extra.body } : {}) };
  };

  // Bodies shaped like the contract schema, one or two fields at a boundary.
  if (withBody && (fields.length || Object.keys(example).length)) {
    await property(route, 'shaped', shapedBody(fields, example), (body) => {
      const { body: raw, type } = encode(encoding === 'none' ? 'json' : encoding, body, spec.field);
      return base({ body: raw, type });
    }, RUNS.shaped);
  }
  // Any JSON at all (objects, arrays, scalars).
  await property(route, 'json', fc.jsonValue({ maxDepth: 4 }), (value) => {
    const { body, type } = encode(encoding === 'none' ? 'json' : encoding, value, spec.field);
    return base({ body, type });
  }, withBody ? RUNS.json : 1);
  // Malformed bodies under right and wrong content types.
  if (withBody) {
    await property(route, 'malformed', fc.tuple(malformedBody, contentType), ([body, type]) => base({ body, type }), RUNS.malformed);
  }
  // Malformed multipart bodies (issue 28), each checked for liveness like every case.
  if (withBody && (encoding === 'multipart' || MULTIPART_ON_OTHER_ROUTES.has(key))) {
    await malformedMultipartCases(route, spec, (extra) => base(extra));
  }
  // Odd path parameters (with a valid body, so the id is what is tested).
  if (params.length) {
    await property(route, 'path', pathArb(route), (path) => {
      const { body, type } = withBody && encoding !== 'none' ? encode(encoding, example, spec.field) : { body: undefined, type: undefined };
      return base({ path, body, type });
    }, RUNS.path);
  }
  // Odd query strings.
  await property(route, 'query', boundaryQuery(queryKeys(spec)), (query) => base({ query }), spec.query ? RUNS.query : 2);
  // Unauthenticated (or with a broken credential): the example body, so only the caller is wrong.
  if (route.auth !== 'webhook') {
    await property(route, 'anonymous', badAuthorization, (headers) => {
      const { body, type } = withBody ? encode(encoding === 'none' ? 'json' : encoding, example, spec.field) : { body: undefined, type: undefined };
      return base({ as: 'anonymous', headers, body, type });
    }, RUNS.anonymous);
  }
  // Webhooks: unsigned or garbage-signed deliveries of random content.
  if (route.auth === 'webhook') {
    const content = fc.oneof(fc.jsonValue({ maxDepth: 4 }), fc.dictionary(fc.constantFrom('CallSid', 'AccountSid', 'From', 'To', 'SpeechResult', 'CallStatus', 'RecordingUrl', 'HandoffData', 'SessionStatus', 'object', 'entry', 'type', 'id', 'data'), boundaryValue, { maxKeys: 5 }));
    await property(route, 'webhook', fc.tuple(content, garbageSignature(encoding), pathArb(route)), ([value, headers, path]) => {
      const { body, type } = withBody ? encode(encoding === 'twilio-form' ? 'twilio-form' : 'json', value) : { body: undefined, type: undefined };
      return base({ path, headers, body, type });
    }, RUNS.webhook);
  }
}

// ---------------------------------------------------------------------------------------------
// The run

/**
 * Destructive routes late, so the owner's objects and subscription serve the other routes first;
 * routes that may end the owner's session (logout, password) last of all.
 */
const rank = (r: Route) => (/logout|password/.test(r.path) ? 2 : r.method === 'DELETE' || /cancel|regenerate|reset|rotate/.test(r.path) ? 1 : 0);
const ordered = [...routes].sort((a, b) => rank(a) - rank(b));

beforeAll(async () => {
  owner = await makeOwner();
}, 120_000);

afterAll(() => {
  console.log(stats.summary());
  if (stats.fiveHundreds.length) console.log(`5xx:\n  ${stats.fiveHundreds.join('\n  ')}`);
  if (stats.leaks.length) console.log(`internals:\n  ${stats.leaks.join('\n  ')}`);
});

describe('route fuzzing: every route of the manifest', () => {
  it('every route has a fuzz entry (declare what a new route takes in FUZZ)', () => {
    const missing = routes.map(keyOf).filter((k) => !(k in FUZZ));
    expect(missing).toEqual([]);
    const stale = Object.keys(FUZZ).filter((k) => !routes.some((r) => keyOf(r) === k));
    expect(stale).toEqual([]);
  });

  it('the internals check flags stack traces, AWS error names, paths and IP addresses, not echoed input', () => {
    expect(internalsIn('{"message":"TypeError: x is not a function\n    at run (/work/main/functions/src/a.ts:1:2)"}', '')).not.toEqual([]);
    expect(internalsIn('{"message":"ValidationException"}', '')).not.toEqual([]);
    expect(internalsIn('{"message":"connect ECONNREFUSED 10.0.0.12:443"}', '')).not.toEqual([]);
    expect(internalsIn('{"message":"see node_modules/x"}', '')).not.toEqual([]);
    expect(internalsIn('{"data":{"webhookUrl":"http://127.0.0.1:4010/api/webhooks/twilio/x/voice"}}', '')).toEqual([]);
    expect(internalsIn('{"message":"Invalid URL: 10.0.0.1"}', 'urls=10.0.0.1')).toEqual([]);
  });

  for (const known of FIXED_CASES) {
    it(`fixed: ${known.finding} → ${known.status}`, async () => {
      const res = await api(known.method, known.path(owner), { token: owner.token, body: known.body });
      expect(res.status).toBe(known.status);
      expect(res.body.message).toBe(known.message);
    });
  }

  const fuzzIt = (route: Route) =>
    it(`${route.method} ${route.path}: never a 5xx, never internals`, { timeout: 180_000 }, async () => {
      const started = Date.now();
      try {
        await fuzzRoute(route);
      } finally {
        stats.msByRoute.set(keyOf(route), Date.now() - started);
      }
    });
  // Routes that leave the owner's data as it is run a few at a time (handlers wait on DynamoDB
  // and the fakes, so this shortens the run); the destructive ones after them, one by one.
  describe.concurrent('routes that keep the owner intact', () => {
    for (const route of ordered.filter((r) => rank(r) === 0)) fuzzIt(route);
  });
  describe('destructive routes, then those that may end the session', () => {
    for (const route of ordered.filter((r) => rank(r) > 0)) fuzzIt(route);
  });

  it("signed WhatsApp deliveries of malformed media, locations, contact cards and interactive replies (issue 31): 200 each, the worker dead-letters none, every message is kept, and the customer is still answered", { timeout: 240_000 }, async () => {
    const started = Date.now();
    const route = routes.find((r) => keyOf(r) === 'POST /api/webhooks/whatsapp-business/{integrationId}')!;
    const { token, userId } = await subscribedUser('professional');
    const chatgpt = await api('POST', '/api/integrations/chatgpt/setup', { token, body: { apiKey: `sk-fuzz-${randomUUID()}`, model: 'gpt-4o' } });
    if (chatgpt.status !== 200) throw new Error(`ChatGPT setup: ${chatgpt.status} ${chatgpt.body.message}`);
    await createAnsweringAgent(token);
    const wa = await connectWhatsApp(token);
    const customer = waCustomer('Lucía Fernández', `34612${randomDigits(6)}`);
    /** wamid → what the message carried (long strings summarised), for the failure message. */
    const kept = new Map<string, string>();
    let failing = '';
    const seed = seedOf(`signed malformed media deliveries${SEED_SHIFT}`);
    const result = await fc.check(
      fc.asyncProperty(malformedMetaMessage, async (message) => {
        const wamid = newWamid();
        const body = metaDelivery(wa, { messages: [{ customer, message: { from: customer.waId, id: wamid, timestamp: String(Math.floor(Date.now() / 1000)), ...message } }] });
        const req: FuzzRequest = { method: 'POST', target: route.path.replace('{integrationId}', encodeURIComponent(wa.integrationId)), headers: { 'content-type': 'application/json', 'x-hub-signature-256': signMetaBody(body, wa.appSecret) }, body };
        const res = await checked(route, req);
        if (res.ok && res.status !== 200) stats.fiveHundreds.push(`signed delivery answered ${res.status}: ${body.slice(0, 300)}`);
        if (!res.ok || res.status !== 200) failing = body.slice(0, 1_000);
        if (!('id' in message)) kept.set(wamid, JSON.stringify(message, (_k, v: unknown) => (typeof v === 'string' && v.length > 60 ? `${v.slice(0, 20)}… (${v.length} characters)` : v)).slice(0, 400));
        return res.ok && res.status === 200;
      }),
      { seed, numRuns: 40 * SCALE },
    );
    if (result.failed) throw new Error(`signed malformed delivery failed (seed ${seed}): ${failing}`);
    await drainQueues();
    // Nothing lost: every message with a WhatsApp id was stored and handled, whatever its content.
    const unhandled: string[] = [];
    for (const [wamid, message] of kept) if ((await getItem(`USER#${userId}`, `WAMID#${wamid}`))?.state !== 'handled') unhandled.push(message);
    expect(unhandled).toEqual([]);
    const letters = (await deadLetters('whatsapp-inbound')).filter((l) => l.body.includes(wa.integrationId));
    expect(letters.map((l) => l.lastError)).toEqual([]);
    // The conversation still works: a plain question afterwards is answered.
    const question = 'Hola, ¿me confirmáis la cita del martes con la Dra. Pérez?';
    const body = metaDelivery(wa, { messages: [textMessage(customer, question)] });
    expect((await postWebhook(wa.integrationId, body, signMetaBody(body, wa.appSecret))).status).toBe(200);
    await until(async () => (await graphSends(wa.phoneId)).some((send) => send.text.includes(question)), 'the answer to the question after the malformed deliveries', 60_000);
    stats.msByRoute.set('(signed malformed media deliveries)', Date.now() - started);
  });

  it('bodies near the 10 MB payload limit: 4xx, and past it 413', { timeout: 180_000 }, async () => {
    const started = Date.now();
    const big = 'x'.repeat(10 * 1024 * 1024 - 200);
    const cases: [string, (s: string) => unknown][] = [
      ['POST /api/contacts', (s) => ({ name: s, phoneNumber: '+14155550123' })],
      ['POST /api/contacts/import/preview', (s) => ({ csv: `name,phone\n${s}` })],
      ['POST /api/agents/{id}/chat', (s) => ({ message: s })],
      ['PUT /api/voice-settings', (s) => ({ ...voiceSettings, messageWelcome: s })],
      ['POST /api/bookings', (s) => ({ ...bookingCreate(), notes: s })],
    ];
    for (const [key, make] of cases) {
      const route = routes.find((r) => keyOf(r) === key);
      if (!route) continue;
      const body = JSON.stringify(make(big.slice(0, 10 * 1024 * 1024 - 500)));
      const req: FuzzRequest = { method: route.method, target: pathWith(route, {}), headers: { ...authHeaders(route, 'owner'), 'content-type': 'application/json' }, body };
      expect(await check(route, req), `${key} with ${body.length} bytes`).toBe(true);
    }
    const stripe = routes.find((r) => keyOf(r) === 'POST /api/webhooks/stripe');
    if (stripe) {
      const unsigned: FuzzRequest = { method: 'POST', target: stripe.path, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: 'evt_x', data: big.slice(0, 9 * 1024 * 1024) }) };
      expect(await check(stripe, unsigned)).toBe(true);
    }
    const contacts = routes.find((r) => keyOf(r) === 'POST /api/contacts');
    if (contacts) {
      const res = await send({ method: 'POST', target: '/api/contacts', headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' }, body: `${big}${'y'.repeat(1024)}` });
      stats.record('POST /api/contacts', res.status);
      expect(res.status).toBe(413);
    }
    stats.msByRoute.set('(10 MB bodies)', Date.now() - started);
  });

  it('the run sent requests to every route and met no 5xx', () => {
    expect(stats.fiveHundreds).toEqual([]);
    expect(stats.leaks).toEqual([]);
    expect(stats.stopped).toEqual([]);
    expect([...stats.routes].sort()).toEqual(routes.map(keyOf).sort());
  });
});

