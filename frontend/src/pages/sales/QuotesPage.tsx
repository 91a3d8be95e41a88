import { useState } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import { FileText, ImagePlus, Pencil, Plus, Trash2 } from 'lucide-react';
import { errorMessage } from '../../api/errors';
import { Button } from '../../components/Button';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { DownloadLink } from '../../components/DownloadLink';
import { DataTable, type Column } from '../../components/DataTable';
import { FormError } from '../../components/Field';
import { PageHeader } from '../../components/PageHeader';
import { Badge } from '../../components/States';
import { useToast } from '../../components/Toast';
import { formatDateTime, formatMoney, humanize } from '../../lib/format';
import { useServerList } from '../../lib/useServerList';
import { QuoteDialog, QuoteEditDialog, QuoteStatusDialog } from './QuoteDialogs';
import { useSalesInvalidate } from './salesHooks';
import { QUOTE_STATUSES, QUOTE_TONE, canConvert, canEditQuote, quoteMoves, salesApi, type Quote, type QuoteStatus } from './salesApi';
import './sales.css';
import { queryKeys } from '../../api/queryKeys';

export function QuotesPage() {
  const navigate = useNavigate();
  const toast = useToast();
  const invalidate = useSalesInvalidate();
  const [creating, setCreating] = useState(false);
  const [moving, setMoving] = useState<{ quote: Quote; to: QuoteStatus } | null>(null);
  const [converting, setConverting] = useState<Quote | null>(null);
  const [editing, setEditing] = useState<Quote | null>(null);
  const [deleting, setDeleting] = useState<Quote | null>(null);
  const [error, setError] = useState<string | null>(null);
  const stats = useQuery({ queryKey: queryKeys.quotes.stats(), queryFn: ({ signal }) => salesApi.quoteStats(signal) });
  const list = useServerList({
    area: 'quotes',
    filters: ['status'],
    fetch: (r, signal) =>
      salesApi.quotes({ skip: r.offset, limit: r.limit, search: r.search, status: QUOTE_STATUSES.find((s) => s === r.filters.status) }, signal),
    // A bare array: the route reports no total, so the pager offers "next" while pages are full.
    select: (rows: Quote[]) => ({ rows }),
  });
  const convert = useMutation({
    mutationFn: (q: Quote) => salesApi.convertQuote(q.id),
    onSuccess: async (r) => {
      setConverting(null);
      setError(null);
      toast.success('Converted', `${r.order_number} was created from the quote.`);
      await invalidate();
      navigate(`/admin/orders/${r.order_id}`);
    },
    onError: (err) => {
      setConverting(null);
      setError(errorMessage(err));
    },
  });
  const remove = useMutation({
    mutationFn: (q: Quote) => salesApi.deleteQuote(q.id),
    onSuccess: async (_, q) => {
      setDeleting(null);
      setError(null);
      toast.success('Quote deleted', `${q.quote_number} was deleted.`);
      await invalidate();
    },
    onError: (err) => {
      setDeleting(null);
      setError(errorMessage(err));
    },
  });

  const columns: Column<Quote>[] = [
    { key: 'quote_number', header: 'Quote', shrink: true, render: (r) => <span className="mono">{r.quote_number}</span> },
    {
      key: 'product_name',
      header: 'For',
      render: (r) => (
        <div className="cell-stack">
          <span className="cell-strong">{r.product_name}</span>
          <span className="cell-sub">{r.customer_name ?? r.customer_email ?? 'No customer'}</span>
        </div>
      ),
    },
    {
      key: 'status',
      header: 'Status',
      shrink: true,
      render: (r) => (
        <div className="cell-stack cell-stack--start">
          <Badge tone={QUOTE_TONE[r.status] ?? 'neutral'}>{humanize(r.status)}</Badge>
          {r.expired && r.status !== 'converted' && <Badge tone="danger">Expired</Badge>}
        </div>
      ),
    },
    { key: 'quantity', header: 'Qty', align: 'right', shrink: true, render: (r) => <span className="num">{r.quantity}</span> },
    { key: 'total_price', header: 'Total', align: 'right', shrink: true, render: (r) => <span className="num">{formatMoney(r.total_price)}</span> },
    { key: 'expires_at', header: 'Expires', shrink: true, hideOnTablet: true, render: (r) => formatDateTime(r.expires_at) },
    {
      key: 'actions',
      header: 'Actions',
      shrink: true,
      render: (r) => (
        <div className="wo-actions quote-actions">
          {r.sales_order_id && (
            <Link to={`/admin/orders/${r.sales_order_id}`} className="mono">
              Order
            </Link>
          )}
          <QuoteImageControl quote={r} />
          <DownloadLink
            url={`/api/v1/quotes/${r.id}/pdf`}
            filename={`${r.quote_number}.pdf`}
            className="btn btn--ghost btn--sm"
            aria-label={`PDF of ${r.quote_number}`}
          >
            <span className="btn__label">PDF</span>
          </DownloadLink>
          {canEditQuote(r) && (
            <>
              <Button size="sm" variant="ghost" icon={<Pencil size={14} />} aria-label={`Edit ${r.quote_number}`} title="Edit" onClick={() => setEditing(r)} />
              <Button size="sm" variant="ghost" icon={<Trash2 size={14} />} aria-label={`Delete ${r.quote_number}`} title="Delete" onClick={() => setDeleting(r)} />
            </>
          )}
          {canConvert(r) && (
            <Button size="sm" variant="primary" onClick={() => setConverting(r)}>
              Convert
            </Button>
          )}
          {quoteMoves(r.status).length > 0 && (
            <select
              className="input input--select"
              aria-label={`Change status of ${r.quote_number}`}
              value=""
              onChange={(e) => {
                const to = QUOTE_STATUSES.find((s) => s === e.target.value);
                if (to) setMoving({ quote: r, to });
              }}
            >
              <option value="">Mark…</option>
              {quoteMoves(r.status).map((s) => (
                <option key={s} value={s}>
                  {humanize(s)}
                </option>
              ))}
            </select>
          )}
        </div>
      ),
    },
  ];
  const s = stats.data;
  const create = (
    <Button variant="primary" icon={<Plus size={16} />} onClick={() => setCreating(true)}>
      New quote
    </Button>
  );
  return (
    <div className="page">
      <PageHeader title="Quotes" description="Prices offered to customers; an approved or accepted quote becomes an order." actions={create} />
      {s && (
        <dl className="stat-row" aria-label="Quote summary">
          <div className="stat">
            <dt>Pending</dt>
            <dd>{s.pending}</dd>
          </div>
          <div className="stat">
            <dt>Approved</dt>
            <dd>{s.approved}</dd>
          </div>
          <div className="stat">
            <dt>Converted</dt>
            <dd>{s.converted}</dd>
          </div>
          <div className="stat">
            <dt>Pending value</dt>
            <dd>{formatMoney(s.pending_value)}</dd>
          </div>
        </dl>
      )}
      <FormError message={error} />
      <DataTable
        caption="Quotes"
        columns={columns}
        {...list.tableProps}
        rowKey={(r) => r.id}
        searchPlaceholder="Search number, product, customer"
        searchLabel="Search quotes"
        filters={
          <select className="input input--select" aria-label="Status" value={list.table.filters.status ?? ''} onChange={(e) => list.table.setFilter('status', e.target.value)}>
            <option value="">Any status</option>
            {QUOTE_STATUSES.map((st) => (
              <option key={st} value={st}>
                {humanize(st)}
              </option>
            ))}
          </select>
        }
        empty={{ icon: <FileText size={22} />, title: 'No quotes yet', description: 'Write a quote for a customer, then convert it to an order.', action: create }}
      />
      <QuoteDialog open={creating} onClose={() => setCreating(false)} />
      <QuoteEditDialog quote={editing} open={editing !== null} onClose={() => setEditing(null)} />
      <QuoteStatusDialog quote={moving?.quote ?? null} to={moving?.to ?? null} open={moving !== null} onClose={() => setMoving(null)} />
      <ConfirmDialog
        open={converting !== null}
        title={`Convert ${converting?.quote_number ?? 'the quote'} to an order?`}
        message="A pending sales order is created from the quote; the quote can no longer be edited."
        confirmLabel="Convert"
        destructive={false}
        busy={convert.isPending}
        onConfirm={() => converting && convert.mutate(converting)}
        onCancel={() => setConverting(null)}
      />
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete ${deleting?.quote_number ?? 'the quote'}?`}
        message="The quote is removed for good."
        confirmLabel="Delete quote"
        busy={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting)}
        onCancel={() => setDeleting(null)}
      />
    </div>
  );
}

/**
 * A quote's picture of the part: "Image" opens it when one is attached, a file picker adds or
 * replaces it (PNG or JPEG; the server checks the content), and × removes it.
 */
function QuoteImageControl({ quote }: { quote: Quote }) {
  const toast = useToast();
  const invalidate = useSalesInvalidate();
  const upload = useMutation({
    mutationFn: (file: File) => salesApi.uploadQuoteImage(quote.id, file),
    onSuccess: async () => {
      toast.success('Image attached', quote.quote_number);
      await invalidate();
    },
    onError: (err: unknown) => toast.error('The image was not attached', errorMessage(err)),
  });
  const remove = useMutation({
    mutationFn: () => salesApi.deleteQuoteImage(quote.id),
    onSuccess: async () => {
      toast.success('Image removed', quote.quote_number);
      await invalidate();
    },
    onError: (err: unknown) => toast.error('The image was not removed', errorMessage(err)),
  });
  return (
    <>
      {quote.has_image && (
        <>
          <DownloadLink
            url={`/api/v1/quotes/${quote.id}/image`}
            filename={`${quote.quote_number}-image`}
            className="btn btn--ghost btn--sm"
            aria-label={`Image of ${quote.quote_number}`}
          >
            <span className="btn__label">Image</span>
          </DownloadLink>
          <Button size="sm" variant="ghost" aria-label={`Remove the image of ${quote.quote_number}`} loading={remove.isPending} onClick={() => remove.mutate()}>
            ×
          </Button>
        </>
      )}
      <label className="btn btn--ghost btn--sm" aria-label={`${quote.has_image ? 'Replace' : 'Add'} the image of ${quote.quote_number}`}>
        <ImagePlus size={14} aria-hidden />
        <input
          type="file"
          accept="image/png,image/jpeg"
          hidden
          disabled={upload.isPending}
          onChange={(e) => {
            const file = e.target.files?.[0];
            e.target.value = '';
            if (file) upload.mutate(file);
          }}
        />
      </label>
    </>
  );
}
