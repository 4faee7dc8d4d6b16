/** The voice settings query and its mutations; every answer that carries the settings replaces the cached copy. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ApiEnvelope, VoiceSettings, VoiceSettingsInput } from '@agentdesk/functions/contract';
import { voiceSettingsApi, voiceSettingsKeys } from '../../../api/voiceSettings';

export function useVoiceSettings() {
  return useQuery({ queryKey: voiceSettingsKeys.all, queryFn: ({ signal }) => voiceSettingsApi.get(signal) });
}

function useStore() {
  const queryClient = useQueryClient();
  return (env: ApiEnvelope<VoiceSettings>) => {
    if (env.data) queryClient.setQueryData(voiceSettingsKeys.all, env.data);
    else void queryClient.invalidateQueries({ queryKey: voiceSettingsKeys.all });
  };
}

export function useSaveVoiceSettings() {
  const store = useStore();
  return useMutation({ mutationFn: (input: VoiceSettingsInput) => voiceSettingsApi.save(input), onSuccess: store });
}

export function useResetVoiceSettings() {
  const store = useStore();
  return useMutation({ mutationFn: () => voiceSettingsApi.reset(), onSuccess: store });
}

export function useRequestPhone() {
  const store = useStore();
  return useMutation({ mutationFn: (notes: string) => voiceSettingsApi.requestPhone(notes), onSuccess: store });
}

export function useCancelPhoneRequest() {
  const store = useStore();
  return useMutation({ mutationFn: () => voiceSettingsApi.cancelPhoneRequest(), onSuccess: store });
}

/** Reveal (created on first use) and rotate: the secret's hint in the settings changes, so they are refetched. */
export function useRevealSecret() {
  return useMutation({ mutationFn: () => voiceSettingsApi.revealSecret() });
}

export function useRotateSecret() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => voiceSettingsApi.rotateSecret(),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: voiceSettingsKeys.all }),
  });
}
