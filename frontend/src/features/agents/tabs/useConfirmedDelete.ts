/**
 * The delete flow of the Files, URLs and Tools tabs: remember which item the user asked to delete
 * (the confirmation is open while it is set), then on confirm run the call, toast the outcome
 * (the server's message when it sends one) and close the confirmation either way.
 */
import { useState } from 'react';
import type { UseMutationResult } from '@tanstack/react-query';
import { useToast } from '../../../shared/useToast';
import { tabErrorMessage, tabMessage } from './messages';

export function useConfirmedDelete<T>(
  remove: UseMutationResult<{ message?: string }, Error, string>,
  idOf: (item: T) => string,
  texts: { deleted: string; failed: string },
) {
  const toast = useToast();
  const [item, setItem] = useState<T | null>(null);

  const confirm = () => {
    if (!item) return;
    remove.mutate(idOf(item), {
      onSuccess: (res) => {
        toast.success(res.message ? tabMessage(res.message) : texts.deleted);
        setItem(null);
      },
      onError: (err) => {
        toast.error(tabErrorMessage(err, texts.failed));
        setItem(null);
      },
    });
  };

  return { item, ask: setItem, cancel: () => setItem(null), confirm, pending: remove.isPending };
}

export type ConfirmedDelete<T> = ReturnType<typeof useConfirmedDelete<T>>;
