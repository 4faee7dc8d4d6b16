/** Server state for contacts (TanStack Query); every change invalidates the lists, the stats and usage. */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BulkTagContactsInput, Contact, ContactImportJob, CreateContactInput, UpdateContactInput } from '@agentdesk/functions/contract';
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
  facets: ['contacts', 'facets'] as const,
  importJobs: ['contacts', 'import-jobs'] as const,
  importJob: (id: string) => ['contacts', 'import-jobs', id] as const,
  exportJob: (id: string) => ['contacts', 'export-jobs', id] as const,
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

/** After any change: lists, stats and the filters' choices reload; the plan's contact usage too. */
export function useInvalidateContacts() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: contactKeys.lists }),
      queryClient.invalidateQueries({ queryKey: contactKeys.stats }),
      queryClient.invalidateQueries({ queryKey: contactKeys.facets }),
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

/** POST /api/contacts/import-whatsapp; the list, the stats and usage reload after it. */
export function useImportWhatsApp() {
  const invalidate = useInvalidateContacts();
  return useMutation({ mutationFn: () => contactsApi.importWhatsApp(), onSuccess: () => invalidate() });
}

/** Tags and custom field names in use: the filters' choices. */
export function useContactFacets() {
  return useQuery({ queryKey: contactKeys.facets, queryFn: ({ signal }) => contactsApi.facets(signal), staleTime: 30_000 });
}

export function useBulkDelete() {
  const queryClient = useQueryClient();
  const invalidate = useInvalidateContacts();
  return useMutation({
    mutationFn: (ids: string[]) => contactsApi.bulkDelete(ids),
    onSuccess: (_res, ids) => {
      for (const id of ids) queryClient.removeQueries({ queryKey: contactKeys.detail(id) });
      void invalidate();
    },
  });
}

export function useBulkTag() {
  const queryClient = useQueryClient();
  const invalidate = useInvalidateContacts();
  return useMutation({
    mutationFn: (input: BulkTagContactsInput) => contactsApi.bulkTag(input),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['contacts', 'detail'] });
      void invalidate();
    },
  });
}

/** Import jobs still moving: polled every second until they settle. */
export const isImportActive = (job: Pick<ContactImportJob, 'status'> | undefined) =>
  job?.status === 'queued' || job?.status === 'running' || job?.status === 'undoing';
const POLL_MS = 1000;

/** One import job, polled while it runs (or is being undone); the list reloads when it settles. */
export function useImportJob(id: string | null) {
  return useQuery({
    queryKey: contactKeys.importJob(id ?? ''),
    queryFn: ({ signal }) => contactsApi.importJob(id!, signal),
    enabled: Boolean(id),
    refetchInterval: (query) => (isImportActive(query.state.data) ? POLL_MS : false),
  });
}

/** The recent imports (newest first), polled while one of them runs. */
export function useImportJobs(enabled = true) {
  return useQuery({
    queryKey: contactKeys.importJobs,
    queryFn: ({ signal }) => contactsApi.importJobs(signal),
    enabled,
    refetchInterval: (query) => (query.state.data?.data.some(isImportActive) ? POLL_MS : false),
  });
}

export function useUndoImport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => contactsApi.undoImportJob(id),
    onSuccess: (job) => {
      queryClient.setQueryData(contactKeys.importJob(job._id), job);
      void queryClient.invalidateQueries({ queryKey: contactKeys.importJobs });
    },
  });
}

/** One export job, polled until it is done or failed. */
export function useExportJob(id: string | null) {
  return useQuery({
    queryKey: contactKeys.exportJob(id ?? ''),
    queryFn: ({ signal }) => contactsApi.exportJob(id!, signal),
    enabled: Boolean(id),
    refetchInterval: (query) => (query.state.data?.status === 'queued' || query.state.data?.status === 'running' ? POLL_MS : false),
  });
}
