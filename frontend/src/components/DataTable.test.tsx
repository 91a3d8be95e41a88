import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DataTable, type Column, type DataTableProps } from './DataTable';
import { ApiError } from '../api/errors';

interface Row {
  id: number;
  sku: string;
  price: number;
}
const columns: Column<Row>[] = [
  { key: 'sku', header: 'SKU', sortable: true },
  { key: 'price', header: 'Price', align: 'right' },
];
const rows: Row[] = [
  { id: 1, sku: 'B-2', price: 5 },
  { id: 2, sku: 'A-1', price: 9 },
];

function setup(props: Partial<DataTableProps<Row>> = {}) {
  const handlers = { onPageChange: vi.fn(), onPageSizeChange: vi.fn(), onSearchChange: vi.fn(), onSortChange: vi.fn(), onRetry: vi.fn(), onClearFilters: vi.fn() };
  render(
    <DataTable<Row>
      caption="Things"
      columns={columns}
      rows={rows}
      rowKey={(r) => r.id}
      total={60}
      page={1}
      pageSize={25}
      loading={false}
      search=""
      {...handlers}
      {...props}
    />,
  );
  return handlers;
}

describe('DataTable', () => {
  it('shows skeleton rows while loading', () => {
    setup({ rows: undefined, loading: true });
    expect(screen.getAllByTestId('skeleton-row').length).toBeGreaterThan(0);
    expect(screen.getByText('Loading…')).toBeInTheDocument();
  });

  it('shows rows with the range and page count', () => {
    setup();
    expect(screen.getByText('A-1')).toBeInTheDocument();
    expect(screen.getByText(/Showing/).textContent).toMatch(/Showing 1–2 of 60/);
    expect(screen.getByText('Page 1 of 3')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Previous page' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Next page' })).toBeEnabled();
  });

  it('pages and changes page size (25/50/100/200)', async () => {
    const h = setup();
    await userEvent.click(screen.getByRole('button', { name: 'Next page' }));
    expect(h.onPageChange).toHaveBeenCalledWith(2);
    const select = screen.getByRole('combobox', { name: /Rows per page/ });
    expect([...(select as HTMLSelectElement).options].map((o) => o.value)).toEqual(['25', '50', '100', '200']);
    await userEvent.selectOptions(select, '100');
    expect(h.onPageSizeChange).toHaveBeenCalledWith(100);
  });

  it('shows the empty state with its call to action', () => {
    setup({ rows: [], total: 0, empty: { title: 'No items yet', description: 'Add one', action: <button>New item</button> } });
    expect(screen.getByText('No items yet')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'New item' })).toBeInTheDocument();
  });

  it('shows a no-match state with a clear button when filtered', async () => {
    const h = setup({ rows: [], total: 0, filtered: true });
    expect(screen.getByText('No results match')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Clear search and filters' }));
    expect(h.onClearFilters).toHaveBeenCalled();
  });

  it('shows the error state with retry', async () => {
    const h = setup({ rows: undefined, error: new ApiError(500, 'Something went wrong on the server. Please try again.') });
    expect(screen.getByRole('alert')).toHaveTextContent('Something went wrong on the server');
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(h.onRetry).toHaveBeenCalled();
  });

  it('shows a 404 as the usual error state, with its message and a retry', () => {
    setup({ rows: undefined, error: new ApiError(404, 'Not Found') });
    expect(screen.getByRole('alert')).toHaveTextContent('Could not load this');
    expect(screen.getByRole('alert')).toHaveTextContent('Not Found');
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
    expect(screen.queryByText('Not available on this server yet')).not.toBeInTheDocument();
  });

  it('debounces the search box', () => {
    vi.useFakeTimers();
    try {
      const h = setup({ debounceMs: 300 });
      const box = screen.getByRole('searchbox', { name: 'Search' });
      fireEvent.change(box, { target: { value: 'wid' } });
      fireEvent.change(box, { target: { value: 'widget' } });
      act(() => vi.advanceTimersByTime(299));
      expect(h.onSearchChange).not.toHaveBeenCalled();
      act(() => vi.advanceTimersByTime(1));
      expect(h.onSearchChange).toHaveBeenCalledTimes(1);
      expect(h.onSearchChange).toHaveBeenCalledWith('widget');
    } finally {
      vi.useRealTimers();
    }
  });

  it('asks the server for a new order on a header click and keeps the rows as they came', async () => {
    const h = setup({ sort: { key: 'sku', dir: 'asc' } });
    // The server's order stays: no sorting of the page on screen.
    const cells = screen.getAllByRole('row').slice(1).map((r) => r.textContent);
    expect(cells[0]).toContain('B-2');
    expect(screen.getByRole('columnheader', { name: /SKU/ })).toHaveAttribute('aria-sort', 'ascending');
    await userEvent.click(screen.getByRole('button', { name: /SKU/ }));
    expect(h.onSortChange).toHaveBeenCalledWith({ key: 'sku', dir: 'desc' });
    // Only columns the server can sort by offer a sort button.
    expect(screen.queryByRole('button', { name: /Price/ })).toBeNull();
  });
});
