import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { AlertTriangle, CalendarClock, CheckCircle2, LineChart, Lock, Play, Send, Trash2, X } from 'lucide-react';
import { errorMessage } from '../../api/errors';
import { queryKeys } from '../../api/queryKeys';
import { Button } from '../../components/Button';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { DataTable, type Column } from '../../components/DataTable';
import { Badge } from '../../components/States';
import { useToast } from '../../components/Toast';
import { formatQty, humanize } from '../../lib/format';
import { useServerList } from '../../lib/useServerList';
import { useVendorOptions } from '../purchasing/vendorOptions';
import { FirmDialog, ReleaseDialog } from './PlannedOrderDialogs';
import {
  EXCEPTION_LABEL,
  PLANNED_STATUSES,
  SOURCE_LABEL,
  STATUS_TONE,
  TYPE_LABEL,
  canCancel,
  canFirm,
  canRelease,
  createdHref,
  createdOrders,
  indexExceptions,
  plannedCode,
  plannedOrdersQuery,
  planningApi,
  productionOrderHref,
  purchaseOrderHref,
  type CreatedOrder,
  type MrpException,
  type PlannedOrder,
  type PlannedOrderPage,
  type ReleaseResult,
} from './planningApi';

interface PlannedOrdersProps {
  /** Opens the supply and demand chart of an item. */
  onChart: (productId: number) => void;
  /** Opens the Run MRP dialog (admins; absent for others). */
  onRun?: () => void;
}

/** Where a planned order's first requirement comes from, linked when it is an order of the SPA. */
function Source({ o }: { o: PlannedOrder }) {
  if (!o.source_demand_type) return <span className="muted">—</span>;
  const label = SOURCE_LABEL[o.source_demand_type];
  const id = o.source_demand_id;
  if (id === null || o.source_demand_type === 'safety_stock') return <span className="plan-nowrap">{label}</span>;
  if (o.source_demand_type === 'sales_order')
    return (
      <Link className="plan-nowrap" to={`/admin/orders/${id}`}>
        {`${label} #${id}`}
      </Link>
    );
  if (o.source_demand_type === 'production_order')
    return (
      <Link className="plan-nowrap" to={productionOrderHref(id)}>
        {`${label} #${id}`}
      </Link>
    );
  return <span className="mono">{plannedCode(id)}</span>;
}

/** A released order's document, linked. */
function Converted({ o }: { o: PlannedOrder }) {
  if (o.converted_to_po_id !== null) {
    return (
      <Link className="cell-sub plan-nowrap" to={purchaseOrderHref(o.converted_to_po_id)} title="Open the purchase order it became">
        View PO
      </Link>
    );
  }
  if (o.converted_to_mo_id !== null) {
    return (
      <Link className="cell-sub plan-nowrap" to={productionOrderHref(o.converted_to_mo_id)} title="Open the production order it became">
        View WO
      </Link>
    );
  }
  return null;
}

function Exceptions({ list }: { list: MrpException[] | undefined }) {
  if (!list?.length) return null;
  return (
    <ul className="plan-exceptions" aria-label="Exceptions">
      {list.map((e) => (
        <li key={e.id} className={`plan-exceptions__item plan-exceptions__item--${e.kind}`}>
          <AlertTriangle size={13} aria-hidden="true" />
          <span>
            <strong>{EXCEPTION_LABEL[e.kind]}:</strong> {e.message}
          </span>
        </li>
      ))}
    </ul>
  );
}

/** What the last release created, with links, until it is dismissed. */
export function CreatedPanel({ created, title, onDismiss, children }: { created: CreatedOrder[]; title: string; onDismiss: () => void; children?: ReactNode }) {
  return (
    <section className="alert alert--success plan-created" aria-label={title}>
      <CheckCircle2 size={18} className="alert__icon" aria-hidden="true" />
      <div>
        <strong className="alert__title">{title}</strong>
        <ul className="plan-created__list">
          {created.map((c) => (
            <li key={`${c.kind}:${c.id}`}>
              <Link to={createdHref(c)} className="mono">
                {c.code}
              </Link>{' '}
              <span>
                draft {c.kind === 'purchase' ? 'purchase order' : 'production order'}
                {c.plannedIds.length ? ` from ${c.plannedIds.map(plannedCode).join(', ')}` : ''}
              </span>
            </li>
          ))}
        </ul>
        {children}
      </div>
      <button type="button" className="icon-btn icon-btn--sm" aria-label="Dismiss" onClick={onDismiss}>
        <X size={14} />
      </button>
    </section>
  );
}

/** The planned orders table: filters, exceptions first, row actions and bulk release. */
export function PlannedOrders({ onChart, onRun }: PlannedOrdersProps) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const list = useServerList({
    area: 'planning',
    filters: ['type', 'status'],
    searchable: false,
    fetch: (r, signal) => planningApi.plannedOrders(plannedOrdersQuery(r), signal),
    select: (data: PlannedOrderPage) => ({ rows: data.items, total: data.total }),
  });
  const exceptions = useQuery({ queryKey: queryKeys.planning.exceptions(null), queryFn: ({ signal }) => planningApi.exceptions(null, signal) });
  const { byOrder, general } = indexExceptions(exceptions.data ?? []);
  const vendors = useVendorOptions();
  const vendorName = (id: number | null) => (id === null ? null : (vendors.vendors.find((v) => v.id === id)?.name ?? null));

  const [selected, setSelected] = useState<ReadonlyMap<number, PlannedOrder>>(new Map());
  const [firming, setFirming] = useState<PlannedOrder | null>(null);
  const [releasing, setReleasing] = useState<PlannedOrder[] | null>(null);
  const [cancelling, setCancelling] = useState<PlannedOrder | null>(null);
  const [created, setCreated] = useState<CreatedOrder[]>([]);

  const rows = list.query.data?.rows;
  const releasable = (rows ?? []).filter(canRelease);
  // What is still releasable of what was ticked (a refetch may have released or removed some).
  const chosen = [...selected.values()].filter((o) => {
    const now = rows?.find((r) => r.id === o.id);
    return now ? canRelease(now) : true;
  });
  const allOnPage = releasable.length > 0 && releasable.every((o) => selected.has(o.id));
  const toggle = (o: PlannedOrder) =>
    setSelected((s) => {
      const next = new Map(s);
      if (next.has(o.id)) next.delete(o.id);
      else next.set(o.id, o);
      return next;
    });
  const togglePage = () =>
    setSelected((s) => {
      const next = new Map(s);
      for (const o of releasable) {
        if (allOnPage) next.delete(o.id);
        else next.set(o.id, o);
      }
      return next;
    });

  const cancel = useMutation({
    mutationFn: (o: PlannedOrder) => planningApi.cancel(o.id),
    onSuccess: async (res, o) => {
      toast.success(res.message ?? 'Planned order cancelled', `${plannedCode(o.id)} (${o.product_sku ?? `#${o.product_id}`}) is no longer planned.`);
      setCancelling(null);
      setSelected((s) => {
        const next = new Map(s);
        next.delete(o.id);
        return next;
      });
      await queryClient.invalidateQueries({ queryKey: queryKeys.planning.all });
    },
    onError: (err, o) => {
      setCancelling(null);
      toast.error(`${plannedCode(o.id)} was not cancelled`, errorMessage(err));
    },
  });

  const onReleased = (results: ReleaseResult[]) => {
    setCreated(createdOrders(results));
    const ids = new Set(results.map((r) => r.planned_order_id));
    setSelected((s) => new Map([...s].filter(([id]) => !ids.has(id))));
  };

  const columns: Column<PlannedOrder>[] = [
    {
      key: 'select',
      header: 'Select',
      headerContent: <input type="checkbox" aria-label="Select every releasable order on this page" checked={allOnPage} disabled={releasable.length === 0} onChange={togglePage} />,
      shrink: true,
      render: (o) =>
        canRelease(o) ? <input type="checkbox" aria-label={`Select ${plannedCode(o.id)}`} checked={selected.has(o.id)} onChange={() => toggle(o)} /> : null,
    },
    {
      key: 'id',
      header: 'Planned',
      shrink: true,
      render: (o) => (
        <div className="cell-stack cell-stack--start">
          <span className="mono">{plannedCode(o.id)}</span>
          <Badge tone={o.order_type === 'purchase' ? 'info' : 'neutral'}>{TYPE_LABEL[o.order_type]}</Badge>
        </div>
      ),
    },
    {
      key: 'product_sku',
      header: 'Item',
      render: (o) => (
        <div className="cell-stack">
          <span className="cell-strong plan-sku">{o.product_sku ?? `#${o.product_id}`}</span>
          {o.product_name && <span className="cell-sub">{o.product_name}</span>}
          <Exceptions list={byOrder.get(o.id)} />
        </div>
      ),
    },
    { key: 'quantity', header: 'Qty', align: 'right', shrink: true, render: (o) => <span className="num">{formatQty(o.quantity)}</span> },
    {
      key: 'start_date',
      header: 'Release / need',
      shrink: true,
      render: (o) => (
        <div className="cell-stack cell-stack--start">
          <span className={o.is_late ? 'plan-date plan-date--late' : 'plan-date'}>
            {o.start_date}
            {o.is_late && <Badge tone="danger">Late</Badge>}
          </span>
          <span className="cell-sub">need {o.due_date}</span>
        </div>
      ),
    },
    {
      key: 'vendor_id',
      header: 'Vendor',
      hideOnTablet: true,
      render: (o) =>
        o.order_type === 'production' ? (
          <span className="muted">In house</span>
        ) : o.vendor_id === null ? (
          <Badge tone="warning">No vendor</Badge>
        ) : (
          (vendorName(o.vendor_id) ?? `Vendor #${o.vendor_id}`)
        ),
    },
    { key: 'source_demand_type', header: 'For', hideOnTablet: true, render: (o) => <Source o={o} /> },
    {
      key: 'status',
      header: 'Status',
      shrink: true,
      render: (o) => (
        <div className="cell-stack cell-stack--start">
          <Badge tone={STATUS_TONE[o.status]}>{humanize(o.status)}</Badge>
          {o.status === 'released' && <Converted o={o} />}
        </div>
      ),
    },
    {
      key: 'actions',
      header: 'Actions',
      align: 'right',
      shrink: true,
      render: (o) => (
        <div className="row-actions plan-actions">
          <button type="button" className="icon-btn icon-btn--sm" aria-label={`Supply and demand of ${o.product_sku ?? o.product_id}`} title="Supply and demand" onClick={() => onChart(o.product_id)}>
            <LineChart size={15} />
          </button>
          {canFirm(o) && (
            <button type="button" className="icon-btn icon-btn--sm" aria-label={`Firm ${plannedCode(o.id)}`} title="Firm: later runs keep it" onClick={() => setFirming(o)}>
              <Lock size={15} />
            </button>
          )}
          {canRelease(o) && (
            <Button size="sm" icon={<Send size={14} />} aria-label={`Release ${plannedCode(o.id)}`} onClick={() => setReleasing([o])}>
              Release
            </Button>
          )}
          {canCancel(o) && (
            <button type="button" className="icon-btn icon-btn--sm icon-btn--danger" aria-label={`Cancel ${plannedCode(o.id)}`} title="Cancel" onClick={() => setCancelling(o)}>
              <Trash2 size={15} />
            </button>
          )}
        </div>
      ),
    },
  ];

  const { table } = list;
  return (
    <div className="plan-orders">
      {created.length > 0 && <CreatedPanel created={created} title="Released as drafts" onDismiss={() => setCreated([])} />}
      {general.length > 0 && (
        <section className="alert alert--warning" aria-label="Exceptions of the last run">
          <AlertTriangle size={18} className="alert__icon" aria-hidden="true" />
          <div>
            <strong className="alert__title">
              {general.length} exception{general.length === 1 ? '' : 's'} of the last run need attention
            </strong>
            <ul className="plan-exceptions plan-exceptions--plain">
              {general.map((e) => (
                <li key={e.id}>
                  <strong>{EXCEPTION_LABEL[e.kind]}:</strong> {e.message}
                </li>
              ))}
            </ul>
          </div>
        </section>
      )}
      <DataTable
        caption="Planned orders"
        columns={columns}
        {...list.tableProps}
        rowKey={(o) => o.id}
        filters={
          <>
            <select className="input input--select" aria-label="Type" value={table.filters.type ?? ''} onChange={(e) => table.setFilter('type', e.target.value)}>
              <option value="">Buy and make</option>
              <option value="buy">Buy</option>
              <option value="make">Make</option>
            </select>
            <select className="input input--select" aria-label="Status" value={table.filters.status ?? ''} onChange={(e) => table.setFilter('status', e.target.value)}>
              <option value="">Any status</option>
              {PLANNED_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {humanize(s)}
                </option>
              ))}
            </select>
            <Button variant="primary" icon={<Send size={15} />} disabled={chosen.length === 0} onClick={() => setReleasing(chosen)}>
              {chosen.length ? `Release selected (${chosen.length})` : 'Release selected'}
            </Button>
            {chosen.length > 0 && (
              <Button variant="ghost" onClick={() => setSelected(new Map())}>
                Clear selection
              </Button>
            )}
          </>
        }
        empty={{
          icon: <CalendarClock size={22} />,
          title: 'Nothing is planned',
          description: 'Run MRP to plan what to buy and make from open sales and production orders.',
          action: onRun && (
            <Button variant="primary" icon={<Play size={16} />} onClick={onRun}>
              Run MRP
            </Button>
          ),
        }}
      />
      <FirmDialog order={firming} onClose={() => setFirming(null)} />
      <ReleaseDialog orders={releasing} vendorName={vendorName} onClose={() => setReleasing(null)} onReleased={onReleased} />
      <ConfirmDialog
        open={cancelling !== null}
        title={`Cancel ${cancelling ? plannedCode(cancelling.id) : 'this planned order'}?`}
        message={
          cancelling && (
            <>
              <p>
                The suggestion to {cancelling.order_type === 'purchase' ? 'buy' : 'make'} <strong>{formatQty(cancelling.quantity)}</strong> ×{' '}
                <strong>{cancelling.product_sku ?? `#${cancelling.product_id}`}</strong> by {cancelling.due_date} is deleted.
              </p>
              <p className="muted">The next MRP run plans it again if it is still needed.</p>
            </>
          )
        }
        confirmLabel="Cancel planned order"
        cancelLabel="Keep it"
        busy={cancel.isPending}
        onCancel={() => setCancelling(null)}
        onConfirm={() => cancelling && cancel.mutate(cancelling)}
      />
    </div>
  );
}
