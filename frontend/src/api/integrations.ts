/**
 * Integrations calls (SPEC §7 Integrations): the list, one by type, the ChatGPT setup / test / ask,
 * the WhatsApp Business and Twilio Voice setup / test, and disconnect (DELETE by type). Secrets come back as '***'.
 */
import { useQuery } from '@tanstack/react-query';
import type {
  ChatGptAskInput,
  ChatGptAskResponse,
  ChatGptSetupInput,
  IntegrationType,
  IntegrationView,
  TwilioSetupInput,
  TwilioSetupResult,
  TwilioTestResult,
  WhatsAppSetupInput,
  WhatsAppSetupResult,
} from '@agentdesk/functions/contract';
import { voiceMessages } from '@agentdesk/functions/contract';
import { ApiError, request, requestData } from './client';

const BASE = '/api/integrations';

export const integrationKeys = {
  all: ['integrations'] as const,
  /** GET /api/integrations; use `exact: true` to refresh only the list. */
  list: ['integrations'] as const,
  detail: (type: IntegrationType) => ['integrations', type] as const,
};

/** The number a Twilio Voice integration answers (kept in its settings, or its credentials by older setups); '' when none. */
export function twilioNumberOf(integration: IntegrationView | null | undefined): string {
  return [integration?.settings.phoneNumber, integration?.credentials.phoneNumber].find((v): v is string => typeof v === 'string' && v !== '') ?? '';
}

/** A connection test's answer: the server's message ('Connection successful' or why not). */
export interface IntegrationTestResult {
  ok: boolean;
  message: string | undefined;
}

export const integrationsApi = {
  list: (signal?: AbortSignal) => requestData<IntegrationView[]>(BASE, { signal }),
  /** One integration, or null when the user has none of that type (404). */
  get: async (type: IntegrationType, signal?: AbortSignal): Promise<IntegrationView | null> => {
    try {
      return await requestData<IntegrationView>(`${BASE}/${type}`, { signal });
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) return null;
      throw err;
    }
  },
  setupChatGpt: (input: ChatGptSetupInput) =>
    request<IntegrationView>(`${BASE}/chatgpt/setup`, { method: 'POST', body: input }),
  /** With no input the stored key and settings are tested; with input, those values before saving. */
  testChatGpt: async (input?: Partial<ChatGptSetupInput>): Promise<IntegrationTestResult> => {
    const env = await request(`${BASE}/chatgpt/test`, { method: 'POST', body: input ?? {} });
    return { ok: env.success, message: env.message };
  },
  ask: (input: ChatGptAskInput) =>
    requestData<ChatGptAskResponse>(`${BASE}/chatgpt/ask`, { method: 'POST', body: input }),
  /** data: the webhook URL and verify token to paste in Meta's App Dashboard. */
  setupWhatsApp: (input: WhatsAppSetupInput) =>
    request<WhatsAppSetupResult>(`${BASE}/whatsapp-business/setup`, { method: 'POST', body: input }),
  /** Asks the Graph API for the phone number; '***' secrets mean the stored ones. */
  testWhatsApp: async (input?: Partial<WhatsAppSetupInput>): Promise<IntegrationTestResult> => {
    const env = await request(`${BASE}/whatsapp-business/test`, { method: 'POST', body: input ?? {} });
    return { ok: env.success, message: env.message };
  },
  /** data: the voice webhook and status callback URLs, and whether the number was pointed at them. */
  setupTwilio: (input: TwilioSetupInput) =>
    request<TwilioSetupResult>(`${BASE}/twilio-voice/setup`, { method: 'POST', body: input }),
  /** Asks Twilio's REST API for the account and the number; '***' means the stored token. */
  testTwilio: async (input?: Partial<TwilioSetupInput>): Promise<IntegrationTestResult> => {
    const env = await request<TwilioTestResult>(`${BASE}/twilio-voice/test`, { method: 'POST', body: input ?? {} });
    if (env.data && env.data.numberFound === false) return { ok: false, message: voiceMessages.twilioNumberNotFound };
    return { ok: env.success, message: env.message };
  },
  disconnect: (type: IntegrationType) => request(`${BASE}/${type}`, { method: 'DELETE' }),
};

/** GET /api/integrations. */
export function useIntegrations() {
  return useQuery({ queryKey: integrationKeys.list, queryFn: ({ signal }) => integrationsApi.list(signal) });
}

/**
 * Whether the ChatGPT integration is active (GET /api/integrations/chatgpt). A failed read counts
 * as inactive (SPEC §2 Agent detail); `isLoading` is true until the first answer.
 */
export function useChatGptActive(): { active: boolean; isLoading: boolean } {
  const query = useQuery({
    queryKey: integrationKeys.detail('chatgpt'),
    queryFn: ({ signal }) => integrationsApi.get('chatgpt', signal),
    retry: false,
  });
  return { active: query.data?.isActive === true && !query.isError, isLoading: query.isPending };
}
