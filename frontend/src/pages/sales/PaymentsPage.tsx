import { useState } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { Banknote, Plus } from 'lucide-react';
import { errorMessage } from '../../api/errors';
import { Button } from '../../components/Button';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { DataTable, type Column } from '../../components/DataTable';
import { FormError } from '../../components/Field';
import { PageHeader } from '../../components/PageHeader';
import { Badge } from '../../components/States';
import { useToast } from '../../components/Toast';
import { formatDateTime, formatMoney, humanize } from '../../lib/format';
import { useServerList } from '../../lib/useServerList';
import { PaymentDialog } from './PaymentDialog';
import { useSalesInvalidate } from './salesHooks';
import { PAYMENT_METHODS, salesApi, type Payment, type PaymentList, type PaymentMethod } from './salesApi';
import './sales.css';
import { queryKeys } from '../../api/queryKeys';

const STATUS_TONE: Record<string, 'success' | 'warning' | 'danger' | 'neutral'> = { completed: 'success', pending: 'warning', failed: 'danger', voided: 'neutral' };
const PAYMENT_STATUSES = ['pending', 'completed', 'failed', 'voided'] as const;
const PAYMENT_TYPES = ['payment', 'refund', 'adjustment'] as const;

export function PaymentsPage() {
  const toast = useToast();
  const invalidate = useSalesInvalidate();
  const [recording, setRecording] = useState(false);
  const [refunding, setRefunding] = useState<Payment | null>(null);
  const [voiding, setVoiding] = useState<Payment | null>(null);
  const [error, setError] = useState<string | null>(null);
  const dashboard = useQuery({ queryKey: queryKeys.payments.dashboard(), queryFn: ({ signal }) => salesApi.paymentsDashboard(signal) });
  const list = useServerList({
    area: 'payments',
    filters: ['method', 'status', 'type'],
    fetch: (r, signal) =>
      salesApi.payments(
        {
          page: r.page,
          page_size: Math.min(100, r.limit),
          search: r.search,
          payment_method: PAYMENT_METHODS.find((m) => m === r.filters.method),
          status: PAYMENT_STATUSES.find((s) => s === r.filters.status),
          payment_type: PAYMENT_TYPES.find((t) => t === r.filters.type),
        },
        signal,
      ),
    select: (d: PaymentList) => ({ rows: d.items, total: d.total }),
  });
  const refundSummary = useQuery({
    queryKey: queryKeys.payments.summary(refunding?.sales_order_id),
    queryFn: ({ signal }) => salesApi.paymentSummary(refunding?.sales_order_id ?? 0, signal),
    enabled: refunding !== null,
  });
  const voidIt = useMutation({
    mutationFn: (p: Payment) => salesApi.voidPayment(p.id),
    onSuccess: async () => {
      toast.success('Payment voided', `${voiding?.payment_number ?? 'The payment'} was voided and its entry reversed.`);
      setVoiding(null);
      setError(null);
      await invalidate();
    },
    onError: (err) => {
      setVoiding(null);
      setError(errorMessage(err));
    },
  });

  const columns: Column<Payment>[] = [
    { key: 'payment_number', header: 'Payment', shrink: true, render: (r) => <span className="mono">{r.payment_number}</span> },
    {
      key: 'order_number',
      header: 'Order',
      shrink: true,
      render: (r) => (
        <Link to={`/admin/orders/${r.sales_order_id}`} className="mono" onClick={(e) => e.stopPropagation()}>
          {r.order_number ?? `#${r.sales_order_id}`}
        </Link>
      ),
    },
    { key: 'payment_type', header: 'Type', shrink: true, render: (r) => humanize(r.payment_type) },
    { key: 'payment_method', header: 'Method', shrink: true, render: (r) => humanize(r.payment_method) },
    { key: 'status', header: 'Status', shrink: true, render: (r) => <Badge tone={STATUS_TONE[r.status] ?? 'neutral'}>{humanize(r.status)}</Badge> },
    { key: 'amount', header: 'Amount', align: 'right', shrink: true, render: (r) => <span className="num">{formatMoney(r.amount)}</span> },
    { key: 'payment_date', header: 'Date', shrink: true, hideOnTablet: true, render: (r) => formatDateTime(r.payment_date) },
    {
      key: 'actions',
      header: 'Actions',
      shrink: true,
      render: (r) =>
        r.status === 'voided' ? null : (
          <div className="wo-actions">
            {r.payment_type === 'payment' && r.status === 'completed' && (
              <Button size="sm" variant="secondary" onClick={() => setRefunding(r)}>
                Refund
              </Button>
            )}
            <Button size="sm" variant="ghost" onClick={() => setVoiding(r)}>
              Void
            </Button>
          </div>
        ),
    },
  ];
  const d = dashboard.data;
  const refundable = refundSummary.data ? Number(refundSummary.data.total_paid) - Number(refundSummary.data.total_refunded) : undefined;
  const filter = (name: string, label: string, values: readonly string[]) => (
    <select className="input input--select" aria-label={label} value={list.table.filters[name] ?? ''} onChange={(e) => list.table.setFilter(name, e.target.value)}>
      <option value="">Any {label.toLowerCase()}</option>
      {values.map((v) => (
        <option key={v} value={v}>
          {humanize(v)}
        </option>
      ))}
    </select>
  );
  const record = (
    <Button variant="primary" icon={<Plus size={16} />} onClick={() => setRecording(true)}>
      Record payment
    </Button>
  );
  return (
    <div className="page">
      <PageHeader title="Payments" description="Money in and out against sales orders; each one is posted to the ledger." actions={record} />
      {d && (
        <dl className="stat-row" aria-label="Payments summary">
          <div className="stat">
            <dt>Today</dt>
            <dd>
              {formatMoney(d.amount_today)} · {d.payments_today}
            </dd>
          </div>
          <div className="stat">
            <dt>This week</dt>
            <dd>
              {formatMoney(d.amount_this_week)} · {d.payments_this_week}
            </dd>
          </div>
          <div className="stat">
            <dt>This month</dt>
            <dd>
              {formatMoney(d.amount_this_month)} · {d.payments_this_month}
            </dd>
          </div>
          <div className="stat">
            <dt>Outstanding</dt>
            <dd>
              {formatMoney(d.total_outstanding)} · {d.orders_with_balance} orders
            </dd>
          </div>
        </dl>
      )}
      <FormError message={error} />
      <DataTable
        caption="Payments"
        columns={columns}
        {...list.tableProps}
        pageSizes={[25, 50, 100]}
        rowKey={(r) => r.id}
        searchPlaceholder="Search payment, order, reference"
        searchLabel="Search payments"
        filters={
          <>
            {filter('method', 'Method', PAYMENT_METHODS as readonly PaymentMethod[])}
            {filter('status', 'Status', PAYMENT_STATUSES)}
            {filter('type', 'Type', PAYMENT_TYPES)}
          </>
        }
        empty={{ icon: <Banknote size={22} />, title: 'No payments yet', description: 'Record what customers pay against their orders.', action: record }}
      />
      <PaymentDialog mode="payment" orderId={null} open={recording} onClose={() => setRecording(false)} />
      <PaymentDialog
        key={`refund-${refunding?.id ?? 0}-${refundable ?? ''}`}
        mode="refund"
        orderId={refunding?.sales_order_id ?? null}
        orderLabel={refunding?.order_number ?? undefined}
        maxRefund={refundable}
        open={refunding !== null}
        onClose={() => setRefunding(null)}
      />
      <ConfirmDialog
        open={voiding !== null}
        title={`Void ${voiding?.payment_number ?? 'the payment'}?`}
        message="Its ledger entry is reversed and the order's payment status recomputed. This cannot be undone."
        confirmLabel="Void payment"
        cancelLabel="Keep payment"
        busy={voidIt.isPending}
        onConfirm={() => voiding && voidIt.mutate(voiding)}
        onCancel={() => setVoiding(null)}
      />
    </div>
  );
}
