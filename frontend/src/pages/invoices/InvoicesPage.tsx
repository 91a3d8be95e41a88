import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import { FileText, X, XCircle } from 'lucide-react';
import { errorMessage } from '../../api/errors';
import { queryKeys } from '../../api/queryKeys';
import { Button } from '../../components/Button';
import { DataTable, type Column } from '../../components/DataTable';
import { PageHeader } from '../../components/PageHeader';
import { Skeleton } from '../../components/States';
import { formatDateTime, formatMoney, toNumber } from '../../lib/format';
import { pickSort, useServerList } from '../../lib/useServerList';
import { formatDate } from '../accounting/accountingFormat';
import { InvoiceStatusBadge } from './InvoiceStatusBadge';
import { INVOICE_FILTER_LABEL, INVOICE_FILTERS, INVOICE_SORTS, invoicesApi, type InvoiceRow, type InvoiceStatusFilter } from './invoicesApi';
import './invoices.css';

const columns: Column<InvoiceRow>[] = [
  {
    key: 'invoice_number',
    header: 'Invoice',
    shrink: true,
    sortable: true,
    render: (r) => (
      <Link to={`/admin/invoices/${r.id}`} className="mono" onClick={(e) => e.stopPropagation()}>
        {r.invoice_number}
      </Link>
    ),
  },
  {
    key: 'customer_name',
    header: 'Customer',
    sortable: true,
    render: (r) => (
      <div className="cell-stack">
        <span className="cell-strong">{r.customer_name ?? 'No customer'}</span>
        {r.customer_company && <span className="cell-sub">{r.customer_company}</span>}
      </div>
    ),
  },
  {
    key: 'order_number',
    header: 'Order',
    shrink: true,
    hideOnTablet: true,
    render: (r) => (
      <Link to={`/admin/orders/${r.sales_order_id}`} className="mono" onClick={(e) => e.stopPropagation()}>
        {r.order_number ?? `#${r.sales_order_id}`}
      </Link>
    ),
  },
  { key: 'status', header: 'Status', shrink: true, render: (r) => <InvoiceStatusBadge invoice={r} /> },
  { key: 'invoice_date', header: 'Date', shrink: true, hideOnTablet: true, render: (r) => formatDate(r.invoice_date) },
  {
    key: 'due_date',
    header: 'Due',
    shrink: true,
    sortable: true,
    render: (r) => <span className={r.is_overdue ? 'text-danger' : undefined}>{formatDate(r.due_date)}</span>,
  },
  { key: 'total', header: 'Total', align: 'right', shrink: true, sortable: true, render: (r) => <span className="num">{formatMoney(r.total)}</span> },
  {
    key: 'amount_due',
    header: 'Amount due',
    align: 'right',
    shrink: true,
    sortable: true,
    render: (r) => <span className={`num${(toNumber(r.amount_due) ?? 0) > 0 ? ' cell-strong' : ' muted'}`}>{formatMoney(r.amount_due)}</span>,
  },
  { key: 'created_at', header: 'Created', shrink: true, sortable: true, hideOnTablet: true, render: (r) => formatDateTime(r.created_at) },
];

const EMPTY: Record<InvoiceStatusFilter, { title: string; description: string }> = {
  all: { title: 'No invoices yet', description: 'Invoices are written when an order ships, or by hand from an order’s page (the whole order or a deposit).' },
  open: { title: 'Nothing is owed', description: 'Draft, sent and partly paid invoices with a balance appear here.' },
  overdue: { title: 'No overdue invoices', description: 'Sent or partly paid invoices past their due date appear here.' },
  draft: { title: 'No drafts', description: 'Invoices not sent yet appear here.' },
  sent: { title: 'No sent invoices', description: 'Invoices sent and not paid yet appear here.' },
  partially_paid: { title: 'No partly paid invoices', description: 'Invoices with part of their total paid appear here.' },
  paid: { title: 'No paid invoices', description: 'Invoices paid in full appear here.' },
  voided: { title: 'No voided invoices', description: 'Voided invoices stay here with their reason.' },
};

function SummaryCards() {
  const summary = useQuery({ queryKey: queryKeys.invoices.summary(), queryFn: ({ signal }) => invoicesApi.summary(signal) });
  const s = summary.data;
  if (summary.error) {
    return (
      <div className="kpi-grid__notice">
        <XCircle size={18} aria-hidden="true" />
        <div>
          <strong>The summary could not be loaded</strong>
          <span>{errorMessage(summary.error)}</span>
        </div>
        <Button size="sm" onClick={() => void summary.refetch()}>
          Try again
        </Button>
      </div>
    );
  }
  if (!s) {
    return (
      <div className="stat-row" aria-busy="true">
        {Array.from({ length: 4 }, (_, i) => (
          <div key={i} className="stat">
            <Skeleton width="50%" />
            <Skeleton width="70%" height={22} />
          </div>
        ))}
      </div>
    );
  }
  const overdue = s.overdue_count > 0;
  return (
    <dl className="stat-row" aria-label="Invoice summary">
      <div className="stat" data-testid="total-ar">
        <dt>Receivables</dt>
        <dd>
          {formatMoney(s.total_ar)}
          <span className="stat__sub">{s.open_count} open invoice{s.open_count === 1 ? '' : 's'}</span>
        </dd>
      </div>
      <div className={`stat${overdue ? ' stat--danger' : ''}`} data-testid="overdue">
        <dt>Overdue</dt>
        <dd>
          {formatMoney(s.overdue_amount)}
          <span className="stat__sub">{s.overdue_count} invoice{s.overdue_count === 1 ? '' : 's'} past due</span>
        </dd>
      </div>
      <div className="stat" data-testid="drafts">
        <dt>Drafts</dt>
        <dd>
          {s.draft_count}
          <span className="stat__sub">not sent yet</span>
        </dd>
      </div>
      <div className="stat stat--success" data-testid="paid-30">
        <dt>Paid, last 30 days</dt>
        <dd>
          {formatMoney(s.paid_last_30_days)}
          <span className="stat__sub">paid in full</span>
        </dd>
      </div>
    </dl>
  );
}

/**
 * Invoices (admins): receivables at a glance, then every invoice by status tab, searched,
 * sorted and paged on the server. `?customer=` narrows the list to one customer (the AR
 * ageing links here).
 */
export function InvoicesPage() {
  const navigate = useNavigate();
  const list = useServerList({
    area: 'invoices',
    filters: ['status', 'customer'],
    fetch: (r, signal) =>
      invoicesApi.list(
        {
          offset: r.offset,
          limit: r.limit,
          search: r.search ?? null,
          status: INVOICE_FILTERS.find((s) => s === r.filters.status) ?? null,
          customer_id: Number.parseInt(r.filters.customer ?? '', 10) || null,
          sort_by: pickSort(INVOICE_SORTS, r.sort_by),
          sort_order: r.sort_order,
        },
        signal,
      ),
    // A bare array: the route reports no total, so the pager offers "next" while pages are full.
    select: (rows: InvoiceRow[]) => ({ rows }),
  });
  const { table } = list;
  const status: InvoiceStatusFilter = INVOICE_FILTERS.find((s) => s === table.filters.status) ?? 'all';
  const customerId = Number.parseInt(table.filters.customer ?? '', 10) || null;
  const customerName = customerId !== null ? list.query.data?.rows.find((r) => r.customer_id === customerId)?.customer_name : undefined;
  const empty = EMPTY[status];
  return (
    <div className="page">
      <PageHeader title="Invoices" description="What customers have been billed, what they owe and what is late." />
      <SummaryCards />
      <div className="tabs inv-tabs" role="tablist" aria-label="Invoice status">
        {INVOICE_FILTERS.map((s) => (
          <button
            key={s}
            type="button"
            role="tab"
            aria-selected={status === s}
            className={`tab${status === s ? ' is-active' : ''}${s === 'overdue' ? ' inv-tab--overdue' : ''}`}
            onClick={() => table.setFilter('status', s === 'all' ? '' : s)}
          >
            {INVOICE_FILTER_LABEL[s]}
          </button>
        ))}
      </div>
      {customerId !== null && (
        <div className="inv-chips">
          <span className="inv-chip">
            Customer: {customerName ?? `#${customerId}`}
            <button type="button" className="icon-btn icon-btn--sm" aria-label="Show every customer" onClick={() => table.setFilter('customer', '')}>
              <X size={14} />
            </button>
          </span>
        </div>
      )}
      <DataTable
        caption="Invoices"
        columns={columns}
        {...list.tableProps}
        // A status tab is not a filter to clear: its own empty state says what it lists.
        filtered={Boolean(table.search) || customerId !== null}
        pageSizes={[25, 50, 100]}
        searchLabel="Search invoices"
        searchPlaceholder="Invoice, order, customer, company, e-mail…"
        rowKey={(r) => r.id}
        onRowClick={(r) => navigate(`/admin/invoices/${r.id}`)}
        rowLabel={(r) => `Open ${r.invoice_number}`}
        empty={{ icon: <FileText size={22} />, title: empty.title, description: empty.description }}
      />
    </div>
  );
}
