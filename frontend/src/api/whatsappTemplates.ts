/**
 * WhatsApp message templates (issue 17): the business's approved templates (GET
 * /api/whatsapp/templates) and a template sent in a conversation whose 24-hour window is closed
 * (POST /api/conversations/{id}/template).
 */
import type { ConversationMessage, SendTemplateRequest, WhatsAppTemplate } from '@agentdesk/functions/contract';
import { request, requestData } from './client';

export const templateKeys = {
  list: ['whatsapp', 'templates'] as const,
};

export const templatesApi = {
  list: (signal?: AbortSignal) => requestData<WhatsAppTemplate[]>('/api/whatsapp/templates', { signal }),
  send: async (conversationId: string, input: SendTemplateRequest) =>
    (await request<ConversationMessage>(`/api/conversations/${encodeURIComponent(conversationId)}/template`, { method: 'POST', body: input })).data,
};
