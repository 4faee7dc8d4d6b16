/**
 * After joining, leaving or handing over an account (issue 32) the person's access token still
 * carries the old account and role: a refresh makes the pre-token trigger write the new ones, then
 * everything cached (the old account's data, /api/me) is fetched again. A refused refresh (the
 * server ended the sessions) signs the person out.
 */
import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { refreshSession } from '../../api/client';
import { useAuth } from '../../shared/session';

export function useRefreshAccount(): () => Promise<boolean> {
  const queryClient = useQueryClient();
  const { signOut } = useAuth();
  return useCallback(async () => {
    const outcome = await refreshSession();
    if (outcome !== 'ok') {
      signOut();
      return false;
    }
    await queryClient.resetQueries();
    return true;
  }, [queryClient, signOut]);
}
