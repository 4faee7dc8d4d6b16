/** ChatGPT, WhatsApp Business and Twilio Voice setup, test and disconnect; every change refreshes the list and the per-type reads. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ChatGptSetupInput, IntegrationType, TwilioSetupInput, WhatsAppSetupInput } from '@agentdesk/functions/contract';
import { integrationKeys, integrationsApi } from '../../api/integrations';

/** GET /api/integrations/{type} (null when there is none). */
export function useIntegration(type: IntegrationType, enabled = true) {
  return useQuery({
    queryKey: integrationKeys.detail(type),
    queryFn: ({ signal }) => integrationsApi.get(type, signal),
    enabled,
    retry: false,
  });
}

function useRefreshIntegrations() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: integrationKeys.all });
}

export function useSetupChatGpt() {
  const refresh = useRefreshIntegrations();
  return useMutation({
    mutationFn: (input: ChatGptSetupInput) => integrationsApi.setupChatGpt(input),
    onSuccess: () => refresh(),
  });
}

export function useTestChatGpt() {
  return useMutation({ mutationFn: (input: Partial<ChatGptSetupInput>) => integrationsApi.testChatGpt(input) });
}

export function useSetupWhatsApp() {
  const refresh = useRefreshIntegrations();
  return useMutation({
    mutationFn: (input: WhatsAppSetupInput) => integrationsApi.setupWhatsApp(input),
    onSuccess: () => refresh(),
  });
}

export function useTestWhatsApp() {
  return useMutation({ mutationFn: (input: Partial<WhatsAppSetupInput>) => integrationsApi.testWhatsApp(input) });
}

export function useSetupTwilio() {
  const refresh = useRefreshIntegrations();
  return useMutation({
    mutationFn: (input: TwilioSetupInput) => integrationsApi.setupTwilio(input),
    onSuccess: () => refresh(),
  });
}

export function useTestTwilio() {
  return useMutation({ mutationFn: (input: Partial<TwilioSetupInput>) => integrationsApi.testTwilio(input) });
}

export function useDisconnectIntegration() {
  const refresh = useRefreshIntegrations();
  return useMutation({
    mutationFn: (type: IntegrationType) => integrationsApi.disconnect(type),
    onSuccess: () => refresh(),
  });
}
