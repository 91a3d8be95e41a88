import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { SortOrder } from '../api/model';
import { useTableState } from './useTableState';
import { listKey, type ListArea } from '../api/queryKeys';

/** What a list page asks the server for: paging, search, sort and the page's own filters. */
export interface ListRequest {
  page: number;
  /** Rows per page (`limit`, `page_size`). */
  limit: number;
  offset: number;
  /** Undefined when the search box is empty. */
  search: string | undefined;
  /** The REST field name of the sorted column (`sku`, `created_at`); undefined keeps the server's order. */
  sort_by: string | undefined;
  sort_order: SortOrder | undefined;
  /** The page's filters from the URL ('' when not set). */
  filters: Record<string, string>;
}

/** One page of rows and, when the route reports it, the total over all pages. */
export interface ListPage<TRow> {
  rows: TRow[];
  total?: number;
}

export interface ServerListOptions<TData, TRow> {
  /** First element of the TanStack Query key (`queryKeys.items.list(request)`); mutations invalidate `queryKeys.items.all`. */
  area: ListArea;
  /** URL parameters the page filters on (besides page, size, q and sort). */
  filters?: readonly string[];
  /** Fetches one page for a request. */
  fetch: (request: ListRequest, signal: AbortSignal) => Promise<TData>;
  /** The rows and total of the route's answer (each route has one known shape). */
  select: (data: TData) => ListPage<TRow>;
  /** False for routes without a `search` parameter: no search box. */
  searchable?: boolean;
  /** Refetch this often (ms) as a fallback for pages kept live by subscriptions. */
  refetchInterval?: number;
}

/**
 * The state and data of a server-side list page: page, page size, search, sort and filters
 * live in the URL (`useTableState`); each change fetches the matching page from the server
 * (sorting and searching happen there, over all rows, and go back to the first page).
 * `tableProps` spreads into `<DataTable>` (loading, empty and error states, pager, debounced
 * search); a failure, a 404 included, is the table's error state.
 */
export function useServerList<TData, TRow>({ area, filters = [], fetch, select, searchable = true, refetchInterval }: ServerListOptions<TData, TRow>) {
  const table = useTableState(filters);
  const request: ListRequest = {
    page: table.page,
    limit: table.pageSize,
    offset: table.offset,
    search: table.search || undefined,
    sort_by: table.sort?.key,
    sort_order: table.sort?.dir,
    filters: table.filters,
  };
  const query = useQuery({
    queryKey: listKey(area, request),
    queryFn: ({ signal }) => fetch(request, signal),
    placeholderData: keepPreviousData,
    select,
    refetchInterval,
  });
  const filtered = Boolean(table.search) || Object.values(table.filters).some(Boolean);

  return {
    table,
    request,
    query,
    tableProps: {
      rows: query.data?.rows,
      total: query.data?.total,
      page: table.page,
      pageSize: table.pageSize,
      onPageChange: table.setPage,
      onPageSizeChange: table.setPageSize,
      sort: table.sort,
      onSortChange: table.setSort,
      search: searchable ? table.search : undefined,
      onSearchChange: searchable ? table.setSearch : undefined,
      filtered,
      onClearFilters: table.clearAll,
      loading: query.isPending,
      fetching: query.isFetching,
      error: query.error,
      onRetry: () => void query.refetch(),
    },
  };
}

/**
 * The sort a route accepts: `key` when it is one of the route's sortable fields (the
 * generated types list them per route), else undefined (the server's own order).
 */
export function pickSort<K extends string>(allowed: readonly K[], key: string | undefined): K | undefined {
  return allowed.find((k) => k === key);
}
