import { useEffect, useState, type ReactNode } from 'react';
import { ArrowDown, ArrowUp, ArrowUpDown, ChevronLeft, ChevronRight, Search, SearchX, X } from 'lucide-react';
import { PAGE_SIZES, type SortState } from '../lib/useTableState';
import { useDebouncedValue } from '../lib/useDebounce';
import { Button } from './Button';
import { EmptyState, ErrorState, Skeleton } from './States';

export interface Column<T> {
  key: string;
  header: string;
  /** Drawn in the header cell instead of `header` (a select-all checkbox); not sortable. */
  headerContent?: ReactNode;
  render?: (row: T) => ReactNode;
  /**
   * Sortable on the server: a header click asks for `sort_by=<key>` (so `key` is the REST
   * field name) and `sort_order`, and goes back to the first page.
   */
  sortable?: boolean;
  /** The REST field the server sorts this column by, when it is not `key` (a full name
   * column sorts by `last_name`). */
  sortKey?: string;
  align?: 'left' | 'right' | 'center';
  width?: string;
  /** Hidden below 1024px to keep tablets readable. */
  hideOnTablet?: boolean;
  /** Only as wide as its content (no wrapping); the other columns share the rest. */
  shrink?: boolean;
}

export interface DataTableProps<T> {
  /** Accessible name of the table. */
  caption: string;
  columns: Column<T>[];
  rows: T[] | undefined;
  rowKey: (row: T) => string | number;
  total?: number;
  page: number;
  pageSize: number;
  onPageChange: (page: number) => void;
  onPageSizeChange?: (size: number) => void;
  pageSizes?: readonly number[];
  sort?: SortState | null;
  onSortChange?: (sort: SortState | null) => void;
  search?: string;
  onSearchChange?: (value: string) => void;
  searchPlaceholder?: string;
  searchLabel?: string;
  debounceMs?: number;
  filters?: ReactNode;
  /** True while any filter or search is applied (changes the empty state). */
  filtered?: boolean;
  onClearFilters?: () => void;
  loading: boolean;
  fetching?: boolean;
  error?: unknown;
  onRetry?: () => void;
  empty?: { title: string; description?: ReactNode; action?: ReactNode; icon?: ReactNode };
  onRowClick?: (row: T) => void;
  rowLabel?: (row: T) => string;
}

function cellClass<T>(c: Column<T>): string | undefined {
  return [c.align ? `align-${c.align}` : '', c.hideOnTablet ? 'hide-tablet' : '', c.shrink ? 'shrink' : ''].filter(Boolean).join(' ') || undefined;
}

export function DataTable<T>({
  caption,
  columns,
  rows,
  rowKey,
  total,
  page,
  pageSize,
  onPageChange,
  onPageSizeChange,
  pageSizes = PAGE_SIZES,
  sort,
  onSortChange,
  search,
  onSearchChange,
  searchPlaceholder = 'Search…',
  searchLabel = 'Search',
  debounceMs = 300,
  filters,
  filtered,
  onClearFilters,
  loading,
  fetching,
  error,
  onRetry,
  empty,
  onRowClick,
  rowLabel,
}: DataTableProps<T>) {
  // The box is controlled locally; the parent hears about it after a pause in typing.
  const [typed, setTyped] = useState(search ?? '');
  const [lastSearch, setLastSearch] = useState(search);
  if (search !== lastSearch) {
    setLastSearch(search);
    setTyped(search ?? '');
  }
  const debounced = useDebouncedValue(typed, debounceMs);
  useEffect(() => {
    if (onSearchChange && debounced !== (search ?? '')) onSearchChange(debounced.trim());
    // eslint-disable-next-line react-hooks/exhaustive-deps -- react to the debounced text only
  }, [debounced]);

  const isSortable = (c: Column<T>) => Boolean(onSortChange && c.sortable);
  const toggleSort = (c: Column<T>) => {
    if (!onSortChange) return;
    const key = c.sortKey ?? c.key;
    if (sort?.key !== key) onSortChange({ key, dir: 'asc' });
    else if (sort.dir === 'asc') onSortChange({ key, dir: 'desc' });
    else onSortChange(null);
  };

  const count = rows?.length ?? 0;
  const knownTotal = total ?? (rows ? (page - 1) * pageSize + count : 0);
  const pageCount = total !== undefined ? Math.max(1, Math.ceil(total / pageSize)) : undefined;
  const hasNext = pageCount !== undefined ? page < pageCount : count >= pageSize;
  const from = count === 0 ? 0 : (page - 1) * pageSize + 1;
  const to = (page - 1) * pageSize + count;
  const showSkeleton = loading && !rows;
  const skeletonRows = Math.min(pageSize, 8);

  // A page past the end (after deleting the last row of it): go back one.
  useEffect(() => {
    if (!loading && rows && rows.length === 0 && page > 1 && total !== undefined && total > 0) {
      onPageChange(Math.max(1, Math.ceil(total / pageSize)));
    }
  }, [loading, rows, page, total, pageSize, onPageChange]);

  let body: ReactNode;
  if (error && !rows) {
    body = (
      <div className="table-state">
        <ErrorState error={error} onRetry={onRetry} compact />
      </div>
    );
  } else if (!showSkeleton && count === 0) {
    body = (
      <div className="table-state">
        {filtered ? (
          <EmptyState
            compact
            icon={<SearchX size={22} />}
            title="No results match"
            description="Try a different search or clear the filters."
            action={onClearFilters && <Button onClick={onClearFilters}>Clear search and filters</Button>}
          />
        ) : (
          <EmptyState
            compact
            icon={empty?.icon}
            title={empty?.title ?? 'Nothing here yet'}
            description={empty?.description}
            action={empty?.action}
          />
        )}
      </div>
    );
  }

  return (
    <section className="datatable" aria-label={caption} aria-busy={loading || fetching || undefined}>
      {(onSearchChange || filters) && (
        <div className="datatable__toolbar">
          {onSearchChange && (
            <div className="search-box">
              <Search size={16} className="search-box__icon" aria-hidden="true" />
              <input
                type="search"
                className="input search-box__input"
                aria-label={searchLabel}
                placeholder={searchPlaceholder}
                value={typed}
                onChange={(e) => setTyped(e.target.value)}
                onKeyDown={(e) => {
                  if (e.key === 'Enter') onSearchChange(typed.trim());
                  if (e.key === 'Escape' && typed) {
                    e.preventDefault();
                    setTyped('');
                    onSearchChange('');
                  }
                }}
              />
              {typed && (
                <button
                  type="button"
                  className="icon-btn icon-btn--sm search-box__clear"
                  aria-label="Clear search"
                  onClick={() => {
                    setTyped('');
                    onSearchChange('');
                  }}
                >
                  <X size={14} />
                </button>
              )}
            </div>
          )}
          {filters && <div className="datatable__filters">{filters}</div>}
        </div>
      )}

      <div className={`datatable__frame${fetching && !showSkeleton ? ' is-fetching' : ''}`}>
        <div className="progress-line" aria-hidden="true" />
        <div className="datatable__scroll">
          <table className="table">
            <caption className="sr-only">{caption}</caption>
            <thead>
              <tr>
                {columns.map((c) => {
                  const active = sort?.key === (c.sortKey ?? c.key);
                  const ariaSort = active ? (sort?.dir === 'asc' ? 'ascending' : 'descending') : undefined;
                  return (
                    <th
                      key={c.key}
                      scope="col"
                      style={{ width: c.shrink ? '1%' : c.width }}
                      className={cellClass(c)}
                      aria-sort={ariaSort}
                    >
                      {isSortable(c) ? (
                        <button type="button" className={`th-sort${active ? ' is-active' : ''}`} onClick={() => toggleSort(c)}>
                          {c.header}
                          {active ? (
                            sort?.dir === 'asc' ? (
                              <ArrowUp size={13} aria-hidden="true" />
                            ) : (
                              <ArrowDown size={13} aria-hidden="true" />
                            )
                          ) : (
                            <ArrowUpDown size={13} aria-hidden="true" className="th-sort__idle" />
                          )}
                        </button>
                      ) : (
                        (c.headerContent ?? c.header)
                      )}
                    </th>
                  );
                })}
              </tr>
            </thead>
            <tbody>
              {showSkeleton &&
                Array.from({ length: skeletonRows }, (_, i) => (
                  <tr key={`sk${i}`} className="row-skeleton" data-testid="skeleton-row">
                    {columns.map((c, j) => (
                      <td key={c.key} className={c.hideOnTablet ? 'hide-tablet' : undefined}>
                        <Skeleton width={`${45 + ((i * 7 + j * 13) % 45)}%`} />
                      </td>
                    ))}
                  </tr>
                ))}
              {!showSkeleton &&
                rows?.map((row) => (
                  <tr
                    key={rowKey(row)}
                    className={onRowClick ? 'is-clickable' : undefined}
                    onClick={onRowClick ? () => onRowClick(row) : undefined}
                    onKeyDown={
                      onRowClick
                        ? (e) => {
                            if (e.key === 'Enter' && e.target === e.currentTarget) onRowClick(row);
                          }
                        : undefined
                    }
                    tabIndex={onRowClick ? 0 : undefined}
                    aria-label={onRowClick && rowLabel ? rowLabel(row) : undefined}
                  >
                    {columns.map((c) => (
                      <td
                        key={c.key}
                        className={cellClass(c)}
                      >
                        {c.render ? c.render(row) : String((row as Record<string, unknown>)[c.key] ?? '')}
                      </td>
                    ))}
                  </tr>
                ))}
            </tbody>
          </table>
          {body}
        </div>
      </div>

      <footer className="datatable__footer">
        <div className="datatable__count" aria-live="polite">
          {showSkeleton ? (
            'Loading…'
          ) : count === 0 ? (
            'No rows'
          ) : (
            <>
              Showing <strong>{from.toLocaleString()}</strong>–<strong>{to.toLocaleString()}</strong>
              {total !== undefined && (
                <>
                  {' '}
                  of <strong>{knownTotal.toLocaleString()}</strong>
                </>
              )}
            </>
          )}
        </div>
        <div className="datatable__pager">
          {onPageSizeChange && (
            <label className="page-size">
              <span>Rows per page</span>
              <select
                className="input input--select input--sm"
                value={pageSize}
                onChange={(e) => onPageSizeChange(Number(e.target.value))}
              >
                {pageSizes.map((s) => (
                  <option key={s} value={s}>
                    {s}
                  </option>
                ))}
              </select>
            </label>
          )}
          <span className="datatable__page">
            Page {page}
            {pageCount !== undefined && ` of ${pageCount}`}
          </span>
          <Button
            size="sm"
            variant="secondary"
            aria-label="Previous page"
            icon={<ChevronLeft size={16} />}
            disabled={page <= 1 || loading}
            onClick={() => onPageChange(page - 1)}
          />
          <Button
            size="sm"
            variant="secondary"
            aria-label="Next page"
            icon={<ChevronRight size={16} />}
            disabled={!hasNext || loading}
            onClick={() => onPageChange(page + 1)}
          />
        </div>
      </footer>
    </section>
  );
}
