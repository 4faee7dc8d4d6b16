/** Inbox settings calls (issue 17): GET/PUT /api/inbox-settings (the whole object), and their query. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { inboxMessages, type InboxSettings } from '@agentdesk/functions/contract';
import { request, requestData } from '../../../api/client';
import { contractTexts } from '../../../i18n/contractTexts';
import en from './i18n/en.json';

const BASE = '/api/inbox-settings';

export const inboxSettingsKeys = { all: ['inbox-settings'] as const };

export const inboxSettingsApi = {
  get: (signal?: AbortSignal) => requestData<InboxSettings>(BASE, { signal }),
  save: async (settings: InboxSettings) => (await request<InboxSettings>(BASE, { method: 'PUT', body: settings })).data,
};

export function useInboxSettings(enabled = true) {
  return useQuery({ queryKey: inboxSettingsKeys.all, queryFn: ({ signal }) => inboxSettingsApi.get(signal), enabled });
}

export function useSaveInboxSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: inboxSettingsApi.save,
    onSuccess: (saved) => {
      if (saved) queryClient.setQueryData(inboxSettingsKeys.all, saved);
      // The board's "AI resumes at" times follow the new hours.
      return Promise.all([queryClient.invalidateQueries({ queryKey: inboxSettingsKeys.all }), queryClient.invalidateQueries({ queryKey: ['conversations'] })]);
    },
  });
}

/** The server's inbox texts in the UI language. */
export const inboxTexts = contractTexts([{ prefix: 'inbox.messages', contract: inboxMessages, keys: en.messages }]);
