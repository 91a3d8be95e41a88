import { useQuery, useQueryClient } from '@tanstack/react-query';
import { queryKeys } from '../../api/queryKeys';
import { messagesApi } from './messagesApi';

/** The badge is refetched this often (ms): a customer's message recorded elsewhere shows within a minute. */
export const UNREAD_REFRESH_MS = 60_000;

/** Messages nobody on the team has read (the sidebar's badge); undefined until known or when it cannot be loaded. */
export function useUnreadMessages(enabled = true): number | undefined {
  const unread = useQuery({
    queryKey: queryKeys.messages.unreadCount(),
    queryFn: ({ signal }) => messagesApi.unreadCount(signal),
    enabled,
    refetchInterval: UNREAD_REFRESH_MS,
    staleTime: 15_000,
  });
  const n = unread.data?.unread_count;
  return typeof n === 'number' ? n : undefined;
}

/**
 * Invalidates what a message moves: every messages query (the inbox, the thread, the
 * badge) and, for a message about an order, that order's history (it gains a `message` entry).
 */
export function useMessagesInvalidate() {
  const queryClient = useQueryClient();
  return (orderId?: number | null) =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: queryKeys.messages.all }),
      orderId ? queryClient.invalidateQueries({ queryKey: queryKeys.sales.events(orderId) }) : undefined,
    ]);
}
