/**
 * The bell's server state (TanStack Query): the newest notifications with the unread count,
 * polled every 30 s while the page is visible (TanStack pauses the interval in a hidden tab).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { NotificationList } from '@agentdesk/functions/contract';
import { notificationKeys, notificationsApi } from '../../api/notifications';

export const NOTIFICATIONS_POLL_MS = 30_000;

export function useNotifications() {
  return useQuery({
    queryKey: notificationKeys.list,
    queryFn: ({ signal }) => notificationsApi.list(signal),
    refetchInterval: NOTIFICATIONS_POLL_MS,
    refetchIntervalInBackground: false,
  });
}

export function useMarkRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => notificationsApi.markRead(id),
    onSuccess: (data, id) => {
      queryClient.setQueryData<NotificationList>(notificationKeys.list, (list) =>
        list && data
          ? {
              ...list,
              unreadCount: data.unreadCount,
              notifications: list.notifications.map((n) => (n._id === id ? data.notification : n)),
            }
          : list,
      );
      return queryClient.invalidateQueries({ queryKey: notificationKeys.list });
    },
  });
}

export function useMarkAllRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => notificationsApi.markAllRead(),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: notificationKeys.list }),
  });
}
