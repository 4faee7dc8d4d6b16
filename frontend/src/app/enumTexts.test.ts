/**
 * Every enum value the UI shows has an English and a Spanish word (issue 19: the contact page
 * showed 'whatsapp import' to a Spanish owner). One row per place the UI translates an enum:
 * the contract's values on one side, the feature's en/es strings on the other.
 */
import { describe, expect, it } from 'vitest';
import {
  CALL_STATUSES,
  CONTACT_ORIGINS,
  CONTACT_SOURCES,
  CONVERSATION_DATE_FILTERS,
  CONVERSATION_MODES,
  CONVERSATION_STATUSES,
  DASHBOARD_TIME_FILTERS,
  EXPORT_JOB_STATUSES,
  IMPORT_FIELDS,
  IMPORT_JOB_STATUSES,
  JOB_FAILURE_CODES,
  MEDIA_FAILURE_REASONS,
  MESSAGE_STATUSES,
  MESSAGE_TYPES,
  NOTIFICATION_KINDS,
  PHONE_REQUEST_STATUSES,
  PLAN_IDS,
  SENTIMENTS,
  SUBSCRIPTION_STATUSES,
  SUMMARY_METHODS,
  TIME_FILTERS,
  URGENCIES,
  USAGE_ACTIONS,
  VOICE_LANGUAGES,
} from '@agentdesk/functions/contract';
import appEn from '../i18n/en.json';
import appEs from '../i18n/es.json';
import adminEn from '../features/admin/i18n/en.json';
import adminEs from '../features/admin/i18n/es.json';
import billingEn from '../features/billing/i18n/en.json';
import billingEs from '../features/billing/i18n/es.json';
import contactsEn from '../features/contacts/i18n/en.json';
import contactsEs from '../features/contacts/i18n/es.json';
import conversationsEn from '../features/conversations/i18n/en.json';
import conversationsEs from '../features/conversations/i18n/es.json';
import dashboardEn from '../features/dashboard/i18n/en.json';
import dashboardEs from '../features/dashboard/i18n/es.json';
import messagesEn from '../features/messages/i18n/en.json';
import messagesEs from '../features/messages/i18n/es.json';
import notificationsEn from '../features/notifications/i18n/en.json';
import notificationsEs from '../features/notifications/i18n/es.json';
import callsEn from '../features/voice/i18n/calls.en.json';
import callsEs from '../features/voice/i18n/calls.es.json';
import voiceSettingsEn from '../features/voice/settings/i18n/en.json';
import voiceSettingsEs from '../features/voice/settings/i18n/es.json';
import messageMediaEn from '../shared/i18n/messageMedia.en.json';
import messageMediaEs from '../shared/i18n/messageMedia.es.json';

type Words = Record<string, unknown>;

/** [what, the contract's values, English words, Spanish words] */
const ROWS: [string, readonly string[], Words, Words][] = [
  ['contact source (list filter)', CONTACT_SOURCES, contactsEn.sources, contactsEs.sources],
  ['contact origin (list chip and contact page)', CONTACT_ORIGINS, contactsEn.origins, contactsEs.origins],
  ['contact activity: call status', CALL_STATUSES, contactsEn.detail.activityStatus, contactsEs.detail.activityStatus],
  ['contact activity: conversation status', CONVERSATION_STATUSES, contactsEn.detail.activityStatus, contactsEs.detail.activityStatus],
  ['import job status', IMPORT_JOB_STATUSES, contactsEn.wizard.status, contactsEs.wizard.status],
  ['export job status', EXPORT_JOB_STATUSES, contactsEn.wizard.status, contactsEs.wizard.status],
  ['import failure', JOB_FAILURE_CODES, contactsEn.wizard.failures, contactsEs.wizard.failures],
  ['import column', IMPORT_FIELDS, contactsEn.wizard.fields, contactsEs.wizard.fields],
  ['call status (call log)', CALL_STATUSES, callsEn.status, callsEs.status],
  ['call status (dashboard)', CALL_STATUSES, dashboardEn.status, dashboardEs.status],
  ['sentiment', SENTIMENTS, callsEn.detail.sentiments, callsEs.detail.sentiments],
  ['urgency', URGENCIES, callsEn.detail.urgencies, callsEs.detail.urgencies],
  ['summary delivery method (call detail)', SUMMARY_METHODS, callsEn.detail.deliveryMethods, callsEs.detail.deliveryMethods],
  ['summary method (voice settings)', SUMMARY_METHODS, voiceSettingsEn.methods, voiceSettingsEs.methods],
  ['conversation mode (call log)', CONVERSATION_MODES, callsEn.modeNames, callsEs.modeNames],
  ['conversation mode (voice settings)', CONVERSATION_MODES, voiceSettingsEn.conversationModes, voiceSettingsEs.conversationModes],
  ['voice language', VOICE_LANGUAGES, voiceSettingsEn.languages, voiceSettingsEs.languages],
  ['phone number request (voice settings)', PHONE_REQUEST_STATUSES, voiceSettingsEn.phone.statuses, voiceSettingsEs.phone.statuses],
  ['phone number request (admin)', PHONE_REQUEST_STATUSES, adminEn.statuses, adminEs.statuses],
  ['conversation status', CONVERSATION_STATUSES, conversationsEn.status, conversationsEs.status],
  ['conversation date filter', CONVERSATION_DATE_FILTERS, conversationsEn.dateFilters, conversationsEs.dateFilters],
  ['message status (conversation)', MESSAGE_STATUSES, conversationsEn.modal.messageStatus, conversationsEs.modal.messageStatus],
  ['message status (message hub)', MESSAGE_STATUSES, messagesEn.statuses, messagesEs.statuses],
  // ptt (voice notes) is shown as audio (SPEC §4).
  ['message type', MESSAGE_TYPES.filter((type) => type !== 'ptt'), messagesEn.types, messagesEs.types],
  ['message time filter', TIME_FILTERS, messagesEn.timeFilters, messagesEs.timeFilters],
  // Issue 31: why a customer's media could not be stored or understood (inbox and Message Hub).
  ['media failure reason', MEDIA_FAILURE_REASONS, messageMediaEn.messageMedia.failures, messageMediaEs.messageMedia.failures],
  ['dashboard range', DASHBOARD_TIME_FILTERS, dashboardEn.range, dashboardEs.range],
  ['notification kind', NOTIFICATION_KINDS, notificationsEn.kinds, notificationsEs.kinds],
  ['plan', PLAN_IDS, billingEn.planNames, billingEs.planNames],
  ['subscription status', SUBSCRIPTION_STATUSES, billingEn.status, billingEs.status],
  ['usage metric', USAGE_ACTIONS, billingEn.usage, billingEs.usage],
  ['UI language', ['en', 'es'], appEn.common.languages, appEs.common.languages],
];

describe('enum values in English and Spanish', () => {
  it.each(ROWS)('%s: every value has a word in both languages', (_what, values, en, es) => {
    const missing = values.flatMap((value) => [
      ...(typeof en[value] === 'string' && en[value] !== '' ? [] : [`en.${value}`]),
      ...(typeof es[value] === 'string' && es[value] !== '' ? [] : [`es.${value}`]),
    ]);
    expect(missing).toEqual([]);
  });

  it("says where a contact came from in words (issue 29): 'Importado (CSV)', 'WhatsApp', 'Llamada', 'Manual'", () => {
    expect(contactsEs.origins).toMatchObject({ csv: 'Importado (CSV)', whatsapp: 'WhatsApp', call: 'Llamada', manual: 'Manual' });
    expect(contactsEn.origins).toMatchObject({ csv: 'Imported (CSV)', whatsapp: 'WhatsApp', call: 'Call', manual: 'Manual' });
    expect(contactsEs.sources.whatsapp_import).toBe('Importado de WhatsApp');
  });

  it('words sentiment and urgency in Spanish as the summary e-mail does', () => {
    expect(callsEs.detail.urgencies.critical).toBe('Crítica');
    expect(callsEs.detail.sentiments.positive).toBe('Positivo');
  });
});
