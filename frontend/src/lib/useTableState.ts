import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';

export const PAGE_SIZES = [25, 50, 100, 200] as const;

export interface SortState {
  key: string;
  dir: 'asc' | 'desc';
}

export interface TableState {
  page: number;
  pageSize: number;
  search: string;
  sort: SortState | null;
  filters: Record<string, string>;
}

/**
 * Paging, search, sort and filters of a list kept in the URL (?page=2&size=50&q=…),
 * so a list can be bookmarked, shared and restored with the back button.
 */
export function useTableState(filterKeys: readonly string[] = [], defaults: { pageSize?: number; filters?: Record<string, string> } = {}) {
  const [params, setParams] = useSearchParams();
  const defaultSize = defaults.pageSize ?? 25;
  const filterKeysKey = filterKeys.join(',');

  const state = useMemo<TableState>(() => {
    const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);
    const rawSize = Number.parseInt(params.get('size') ?? '', 10);
    const pageSize = (PAGE_SIZES as readonly number[]).includes(rawSize) ? rawSize : defaultSize;
    const sortRaw = params.get('sort');
    let sort: SortState | null = null;
    if (sortRaw) {
      const desc = sortRaw.startsWith('-');
      sort = { key: desc ? sortRaw.slice(1) : sortRaw, dir: desc ? 'desc' : 'asc' };
    }
    const filters: Record<string, string> = {};
    for (const k of filterKeysKey ? filterKeysKey.split(',') : []) {
      filters[k] = params.get(k) ?? defaults.filters?.[k] ?? '';
    }
    return { page, pageSize, search: params.get('q') ?? '', sort, filters };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- defaults.filters is a literal at call sites
  }, [params, defaultSize, filterKeysKey]);

  const update = useCallback(
    (changes: Record<string, string | number | null>, resetPage = true) => {
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          for (const [k, v] of Object.entries(changes)) {
            if (v === null || v === '') next.delete(k);
            else next.set(k, String(v));
          }
          if (resetPage && !('page' in changes)) next.delete('page');
          return next;
        },
        { replace: true },
      );
    },
    [setParams],
  );

  return {
    ...state,
    offset: (state.page - 1) * state.pageSize,
    setPage: (page: number) => update({ page: page <= 1 ? null : page }, false),
    setPageSize: (size: number) => update({ size: size === defaultSize ? null : size }),
    setSearch: (q: string) => update({ q }),
    // A new order starts again at the first page (the server sorts all rows, not the page on screen).
    setSort: (sort: SortState | null) => update({ sort: sort ? `${sort.dir === 'desc' ? '-' : ''}${sort.key}` : null }),
    setFilter: (key: string, value: string) => update({ [key]: value }),
    clearAll: () => {
      const cleared: Record<string, null> = { q: null };
      for (const k of filterKeys) cleared[k] = null;
      update(cleared);
    },
  };
}
