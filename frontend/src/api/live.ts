import { useEffect } from 'react';
import { useQueryClient, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { createClient } from 'graphql-ws';
import { apiBaseUrl } from './config';
import { queryKeys } from './queryKeys';
import { authMode, getAccessToken } from '../auth/storage';

/**
 * Live updates: the server announces shop-floor changes over graphql-ws
 * (`/graphql/ws`, subscriptions `productionOrderChanged` and
 * `printerStatusChanged`), and the SPA refetches what it shows about them by
 * invalidating the matching TanStack Query keys. An event says what changed,
 * never the new data, so a page always shows what its own query returns.
 */

/** Which query-key prefixes each subscription invalidates. */
export const LIVE_STREAMS = [
  { query: 'subscription LiveOrders { productionOrderChanged { id } }', keys: [queryKeys.production.all, queryKeys.commandCenter.all] },
  { query: 'subscription LivePrinters { printerStatusChanged { id } }', keys: [queryKeys.printers.all, queryKeys.commandCenter.all] },
] as const;

/** Events that arrive within this window are refetched together. */
export const LIVE_BATCH_MS = 250;

/** The WebSocket URL of the subscriptions, next to the API (same origin unless `VITE_API_URL`). */
export function liveUrl(base: string = apiBaseUrl(), page: Pick<Location, 'protocol' | 'host'> = window.location): string {
  if (base) return `${base.replace(/^http/, 'ws')}/graphql/ws`;
  return `${page.protocol === 'https:' ? 'wss' : 'ws'}://${page.host}/graphql/ws`;
}

/**
 * Collects invalidations and flushes them once per batch window, so a burst
 * (an order completing moves the order, its operations and a printer) costs
 * one refetch per key.
 */
export function invalidationBatcher(client: Pick<QueryClient, 'invalidateQueries'>, waitMs: number = LIVE_BATCH_MS) {
  // The same key added twice in a window is refetched once: keyed by its JSON.
  const pending = new Map<string, QueryKey>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  return {
    add(keys: readonly QueryKey[]) {
      keys.forEach((k) => pending.set(JSON.stringify(k), k));
      if (timer === undefined) {
        timer = setTimeout(() => {
          timer = undefined;
          const keys = [...pending.values()];
          pending.clear();
          for (const queryKey of keys) void client.invalidateQueries({ queryKey });
        }, waitMs);
      }
    },
    stop() {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      pending.clear();
    },
  };
}

/**
 * Keeps the signed-in shell's queries live. The socket signs in with the
 * session cookie (sent with the handshake) or, in header mode, the bearer
 * token; it reconnects after a network drop and pings every 30 s so proxies
 * keep it open. A page that cannot get live updates still works: it refetches
 * on focus and on its own interval.
 */
export function useLiveUpdates(enabled: boolean): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!enabled || typeof WebSocket === 'undefined') return;
    const batch = invalidationBatcher(queryClient);
    const client = createClient({
      url: liveUrl(),
      connectionParams: () => {
        const token = authMode() === 'header' ? getAccessToken() : null;
        return token ? { authorization: `Bearer ${token}` } : {};
      },
      keepAlive: 30_000,
      // One socket for the session, opened now and closed by `dispose`: a lazy socket
      // would close (and reject) whenever the last subscription stops.
      lazy: false,
      onNonLazyError: () => undefined,
      retryAttempts: Number.POSITIVE_INFINITY,
      shouldRetry: () => true,
      // After a reconnect, what changed meanwhile was not announced to us: refetch.
      on: { connected: (_socket, _payload, wasRetry) => wasRetry && batch.add(LIVE_STREAMS.flatMap((s): readonly QueryKey[] => s.keys)) },
    });
    const stops = LIVE_STREAMS.map((stream) =>
      client.subscribe(
        { query: stream.query },
        { next: () => batch.add(stream.keys), error: () => undefined, complete: () => undefined },
      ),
    );
    return () => {
      stops.forEach((stop) => stop());
      batch.stop();
      void client.dispose();
    };
  }, [enabled, queryClient]);
}
