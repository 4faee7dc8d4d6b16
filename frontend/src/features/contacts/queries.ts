/** Server state for contacts (TanStack Query); every change invalidates the lists, the stats and usage. */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Contact, CreateContactInput, UpdateContactInput } from '@agentdesk/functions/contract';
import { contactsApi } from '../../api/contacts';
import { billingKeys } from '../../shared/queryKeys';
import { listQuery, type ContactFilters } from './filters';

export const contactKeys = {
  all: ['contacts'] as const,
  lists: ['contacts', 'list'] as const,
  list: (filters: ContactFilters) => ['contacts', 'list', filters] as const,
  stats: ['contacts', 'stats'] as const,
  detail: (id: string) => ['contacts', 'detail', id] as const,
  timeline: (id: string, limit: number) => ['contacts', 'timeline', id, limit] as const,
};

export function useContactList(filters: ContactFilters) {
  return useQuery({
    queryKey: contactKeys.list(filters),
    queryFn: ({ signal }) => contactsApi.list(listQuery(filters), signal),
    placeholderData: keepPreviousData,
  });
}

export function useContactStats() {
  return useQuery({ queryKey: contactKeys.stats, queryFn: ({ signal }) => contactsApi.stats(signal) });
}

export function useContact(id: string) {
  return useQuery({
    queryKey: contactKeys.detail(id),
    queryFn: ({ signal }) => contactsApi.get(id, signal),
    retry: (count, err) => count < 2 && !(err && typeof err === 'object' && 'status' in err && (err.status === 404 || err.status === 400)),
  });
}

/** The contact page's "Conversations & Calls": the newest `limit` (Show more raises it; the shown rows stay while it loads). */
export function useContactTimeline(id: string, limit: number) {
  return useQuery({
    queryKey: contactKeys.timeline(id, limit),
    queryFn: ({ signal }) => contactsApi.timeline(id, limit, signal),
    placeholderData: keepPreviousData,
  });
}

/** After any change: lists and stats reload; the plan's contact usage too. */
function useInvalidateContacts() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: contactKeys.lists }),
      queryClient.invalidateQueries({ queryKey: contactKeys.stats }),
      queryClient.invalidateQueries({ queryKey: billingKeys.analytics }),
    ]);
}

export function useCreateContact() {
  const invalidate = useInvalidateContacts();
  return useMutation({ mutationFn: (input: CreateContactInput) => contactsApi.create(input), onSuccess: () => invalidate() });
}

export function useUpdateContact(id: string) {
  const queryClient = useQueryClient();
  const invalidate = useInvalidateContacts();
  return useMutation({
    mutationFn: (input: UpdateContactInput) => contactsApi.update(id, input),
    onSuccess: (contact: Contact) => {
      queryClient.setQueryData(contactKeys.detail(id), contact);
      void invalidate();
    },
  });
}

export function useDeleteContact() {
  const queryClient = useQueryClient();
  const invalidate = useInvalidateContacts();
  return useMutation({
    mutationFn: (id: string) => contactsApi.remove(id),
    onSuccess: (_res, id) => {
      queryClient.removeQueries({ queryKey: contactKeys.detail(id) });
      void invalidate();
    },
  });
}

export function useImportPreview() {
  return useMutation({ mutationFn: (csv: string) => contactsApi.importPreview(csv) });
}

/** POST /api/contacts/import-whatsapp; the list, the stats and usage reload after it. */
export function useImportWhatsApp() {
  const invalidate = useInvalidateContacts();
  return useMutation({ mutationFn: () => contactsApi.importWhatsApp(), onSuccess: () => invalidate() });
}

export function useImportContacts() {
  const invalidate = useInvalidateContacts();
  return useMutation({ mutationFn: (csv: string) => contactsApi.importCsv(csv), onSuccess: () => invalidate() });
}
