import { useState, type ReactNode } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router';
import { ArrowLeft, Banknote, CreditCard, Factory, FileText, MapPin, MessageSquarePlus, Package, PackageMinus, Pencil, Plus, Trash2, Truck, Undo2, XCircle } from 'lucide-react';
import { errorMessage } from '../../api/errors';
import { useAuth } from '../../auth/AuthContext';
import { isAdmin } from '../../auth/roles';
import { Button } from '../../components/Button';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { DownloadLink } from '../../components/DownloadLink';
import { FormError } from '../../components/Field';
import { PageHeader } from '../../components/PageHeader';
import { Badge, EmptyState, ErrorState, Skeleton } from '../../components/States';
import { useToast } from '../../components/Toast';
import { formatDateTime, formatMoney, formatQty, humanize } from '../../lib/format';
import { OrderInvoicesCard } from '../invoices/OrderInvoicesCard';
import { OrderMessagesCard } from '../messages/OrderMessagesCard';
import { ORDER_TONE as WO_TONE } from '../production/productionApi';
import { AddressDialog, NoteDialog, PaymentDetailsDialog, ShippingDetailsDialog, TrackingDialog } from './OrderDetailDialogs';
import { CloseShortDialog, LineAddDialog, LineEditDialog } from './OrderLineDialogs';
import { PaymentDialog } from './PaymentDialog';
import { useSalesInvalidate } from './salesHooks';
import { ShipDialog } from './ShipDialog';
import {
  FULFILLMENT_TONE,
  ORDER_TONE,
  PAYMENT_TONE,
  SHIPPING_EVENT_LABEL,
  SHIPPING_EVENT_SOURCE_LABEL,
  SHIPPING_EVENT_TONE,
  CLOSE_SHORT_STATUSES,
  LINE_EDITABLE,
  canChangeAddress,
  orderMoves,
  salesApi,
  type SalesOrder,
  type SalesOrderLine,
  type SalesOrderStatus,
} from './salesApi';
import './sales.css';
import { queryKeys } from '../../api/queryKeys';

const SHIPPABLE: readonly SalesOrderStatus[] = ['confirmed', 'in_production', 'ready_to_ship'];

type Dialog = 'cancel' | 'delete' | 'close-short' | 'ship' | 'payment' | 'refund' | 'note' | 'tracking' | 'payment-details' | 'address' | 'shipping' | null;

function Stat({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="stat">
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

const MOVE_LABEL: Partial<Record<SalesOrderStatus, string>> = {
  confirmed: 'Confirm',
  in_production: 'Start production',
  ready_to_ship: 'Mark ready to ship',
  shipped: 'Mark shipped',
  delivered: 'Mark delivered',
  completed: 'Complete',
  on_hold: 'Put on hold',
  pending: 'Back to pending',
  pending_confirmation: 'Ask for confirmation',
};

function address(o: SalesOrder): string {
  return [o.shipping_address_line1, o.shipping_address_line2, [o.shipping_city, o.shipping_state, o.shipping_zip].filter(Boolean).join(' '), o.shipping_country]
    .filter(Boolean)
    .join('\n');
}

export function OrderDetailPage() {
  const { orderId } = useParams();
  const id = Number(orderId);
  const valid = Number.isInteger(id) && id > 0;
  const navigate = useNavigate();
  const toast = useToast();
  const invalidate = useSalesInvalidate();
  const { user } = useAuth();
  const admin = isAdmin(user);
  const [dialog, setDialog] = useState<Dialog>(null);
  const [error, setError] = useState<string | null>(null);
  const [editingLine, setEditingLine] = useState<SalesOrderLine | null>(null);
  const [addingLine, setAddingLine] = useState(false);
  const [removingLine, setRemovingLine] = useState<SalesOrderLine | null>(null);
  const [removeLineError, setRemoveLineError] = useState<string | null>(null);
  const detail = useQuery({ queryKey: queryKeys.sales.detail(id), queryFn: ({ signal }) => salesApi.get(id, signal), enabled: valid });
  const transitions = useQuery({ queryKey: queryKeys.sales.statusTransitions(), queryFn: ({ signal }) => salesApi.transitions(signal), staleTime: Infinity });
  const events = useQuery({ queryKey: queryKeys.sales.events(id), queryFn: ({ signal }) => salesApi.events(id, signal), enabled: valid });
  const required = useQuery({ queryKey: queryKeys.sales.requiredOrders(id), queryFn: ({ signal }) => salesApi.requiredOrders(id, signal), enabled: valid });
  const blocking = useQuery({ queryKey: queryKeys.sales.blockingIssues(id), queryFn: ({ signal }) => salesApi.blockingIssues(id, signal), enabled: valid });
  const materials = useQuery({ queryKey: queryKeys.sales.materialRequirements(id), queryFn: ({ signal }) => salesApi.materialRequirements(id, signal), enabled: valid });
  const tracking = useQuery({ queryKey: queryKeys.sales.shippingEvents(id), queryFn: ({ signal }) => salesApi.shippingEvents(id, signal), enabled: valid });
  const payments = useQuery({
    queryKey: queryKeys.payments.list({ order_id: id }),
    queryFn: ({ signal }) => salesApi.payments({ order_id: id, page_size: 100 }, signal),
    enabled: valid && admin,
  });
  const summary = useQuery({ queryKey: queryKeys.payments.summary(id), queryFn: ({ signal }) => salesApi.paymentSummary(id, signal), enabled: valid && admin });
  const shipments = useQuery({ queryKey: queryKeys.shipping.list({ sales_order_id: id }), queryFn: ({ signal }) => salesApi.shipments({ sales_order_id: id }, signal), enabled: valid });

  const fail = (err: unknown) => {
    setDialog(null);
    setError(errorMessage(err));
  };
  const move = useMutation({
    mutationFn: (to: SalesOrderStatus) => salesApi.setStatus(id, to),
    onSuccess: async (o) => {
      setError(null);
      toast.success('Order updated', `${o.order_number} is ${humanize(o.status).toLowerCase()}.`);
      await invalidate();
    },
    onError: fail,
  });
  const cancel = useMutation({
    mutationFn: () => salesApi.cancel(id),
    onSuccess: async (o) => {
      setDialog(null);
      toast.success('Order cancelled', `${o.order_number} is cancelled; its reservations are released.`);
      await invalidate();
    },
    onError: fail,
  });
  const remove = useMutation({
    mutationFn: () => salesApi.remove(id),
    onSuccess: async () => {
      toast.success('Deleted', `${detail.data?.order_number ?? 'The order'} was deleted.`);
      await invalidate();
      navigate('/admin/orders');
    },
    onError: fail,
  });
  const removeLine = useMutation({
    mutationFn: (line: SalesOrderLine) => salesApi.removeLine(id, line.id),
    onSuccess: async (o, line) => {
      setRemovingLine(null);
      setRemoveLineError(null);
      toast.success('Line removed', `Line ${line.line_number} is off ${o.order_number}; the total is ${formatMoney(o.grand_total)}.`);
      await invalidate();
    },
    // The refusal (last line, shipped, production orders) stays in the dialog.
    onError: (err) => setRemoveLineError(errorMessage(err)),
  });
  const closeRemoveLine = () => {
    setRemovingLine(null);
    setRemoveLineError(null);
  };
  const generate = useMutation({
    mutationFn: () => salesApi.generateProduction(id),
    onSuccess: async () => {
      toast.success('Production orders', 'Production orders were created for what stock cannot cover.');
      await invalidate();
    },
    onError: fail,
  });

  const back = (
    <Link to="/admin/orders" className="wo-back">
      <ArrowLeft size={14} /> Orders
    </Link>
  );
  const order = detail.data;
  if (!order) {
    return (
      <div className="page">
        <PageHeader title={`Order ${orderId ?? ''}`.trim()} eyebrow={back} />
        {detail.error || !valid ? (
          <div className="card">
            <ErrorState error={detail.error ?? new Error('That is not an order number.')} onRetry={() => void detail.refetch()} />
          </div>
        ) : (
          <div className="card card--pad" aria-busy="true">
            <Skeleton width="40%" height={18} />
            <Skeleton width="70%" />
            <Skeleton width="60%" />
          </div>
        )}
      </div>
    );
  }
  const moves = admin ? orderMoves(transitions.data, order.status).filter((s) => s !== 'shipped') : [];
  // The server ships confirmed, in-production and ready orders; offered once every line is allocated.
  const canShip =
    admin && SHIPPABLE.includes(order.status) && (order.status === 'ready_to_ship' || order.fulfillment_state === 'ready_to_ship') && !order.shipped_at;
  const canDelete = admin && (order.status === 'pending' || order.status === 'cancelled');
  // Admins amend lines until production is done (the server's statuses), and close short from confirmed to ready.
  const canEditLines = admin && LINE_EDITABLE.includes(order.status);
  const canCloseShort = admin && CLOSE_SHORT_STATUSES.includes(order.status);
  const canGenerate = ['confirmed', 'in_production', 'on_hold'].includes(order.status);
  // The server takes tracking updates once the order has shipped (also after delivery).
  const canTrack = admin && Boolean(order.shipped_at) && order.status !== 'cancelled';
  // Owner or admin, until it has shipped (the server refuses shipped, delivered and cancelled).
  const canAddress = canChangeAddress(order, user ? { id: user.id, admin } : null);
  // The server refuses shipping details only on a cancelled order.
  const canShippingDetails = admin && order.status !== 'cancelled';
  const shippedWith = [order.carrier, order.tracking_number && `tracking ${order.tracking_number}`, order.shipped_at && `shipped ${formatDateTime(order.shipped_at)}`]
    .filter(Boolean)
    .join(' · ');
  const paid = Number(summary.data?.total_paid ?? 0) - Number(summary.data?.total_refunded ?? 0);
  const shipTo = address(order);
  return (
    <div className="page">
      <PageHeader
        eyebrow={back}
        title={order.order_number}
        description={order.customer_name ?? order.customer_email ?? 'No customer'}
        actions={
          <div className="wo-actions">
            {moves.map((to) => (
              <Button key={to} variant={to === 'confirmed' ? 'primary' : 'secondary'} loading={move.isPending && move.variables === to} onClick={() => move.mutate(to)}>
                {MOVE_LABEL[to] ?? humanize(to)}
              </Button>
            ))}
            {canShip && (
              <Button variant="primary" icon={<Truck size={16} />} onClick={() => setDialog('ship')}>
                Ship
              </Button>
            )}
            {canGenerate && (
              <Button icon={<Factory size={16} />} loading={generate.isPending} onClick={() => generate.mutate()}>
                Create production orders
              </Button>
            )}
            {canCloseShort && (
              <Button icon={<PackageMinus size={16} />} onClick={() => setDialog('close-short')}>
                Close short
              </Button>
            )}
            {admin && order.status !== 'cancelled' && (
              <Button icon={<Banknote size={16} />} onClick={() => setDialog('payment')}>
                Record payment
              </Button>
            )}
            <DownloadLink
              url={`/api/v1/sales-orders/${order.id}/packing-slip/pdf`}
              filename={`packing-slip-${order.order_number}.pdf`}
              className="btn btn--secondary btn--md"
              aria-label={`Packing slip for ${order.order_number}`}
            >
              <FileText size={16} aria-hidden />
              <span className="btn__label">Packing slip</span>
            </DownloadLink>
            {order.is_cancellable && (
              <Button variant="ghost" icon={<XCircle size={16} />} onClick={() => setDialog('cancel')}>
                Cancel order
              </Button>
            )}
            {canDelete && (
              <Button variant="ghost" icon={<Trash2 size={16} />} onClick={() => setDialog('delete')}>
                Delete
              </Button>
            )}
          </div>
        }
      />
      <div className="wo-badges">
        <Badge tone={ORDER_TONE[order.status] ?? 'neutral'}>{humanize(order.status)}</Badge>
        <Badge tone={FULFILLMENT_TONE[order.fulfillment_state] ?? 'neutral'}>{humanize(order.fulfillment_state)}</Badge>
        <Badge tone={PAYMENT_TONE[order.payment_status] ?? 'neutral'}>Payment {humanize(order.payment_status).toLowerCase()}</Badge>
        <span className="cell-sub">
          {humanize(order.source)} · created {formatDateTime(order.created_at)} · due {order.due_date ?? '—'}
          {order.rush_level !== 'standard' && ` · ${humanize(order.rush_level)}`}
        </span>
      </div>
      <FormError message={error} />
      <dl className="stat-row" aria-label="Totals">
        <Stat label="Subtotal">{formatMoney(order.subtotal)}</Stat>
        <Stat label="Shipping">{formatMoney(order.shipping_cost)}</Stat>
        <Stat label={order.tax_rate_name ? `Tax (${order.tax_rate_name})` : 'Tax'}>{formatMoney(order.tax_amount)}</Stat>
        <Stat label="Grand total">{formatMoney(order.grand_total)}</Stat>
        <Stat label="Ready">
          {order.fulfillment.lines_ready}/{order.fulfillment.lines_total} lines · {Number(order.fulfillment_percent)}%
        </Stat>
        {admin && summary.data && <Stat label="Balance due">{formatMoney(summary.data.balance_due)}</Stat>}
      </dl>
      <section className="card card--pad" aria-labelledby="so-lines">
        <div className="wo-actions" style={{ justifyContent: 'space-between' }}>
          <h2 id="so-lines" className="section-title">
            Lines
          </h2>
          {canEditLines && (
            <Button size="sm" variant="secondary" icon={<Plus size={14} />} onClick={() => setAddingLine(true)}>
              Add line
            </Button>
          )}
        </div>
        <div className="so-scroll">
          <table className="table table--compact" aria-label="Lines">
            <thead>
              <tr>
                <th scope="col">#</th>
                <th scope="col">Item</th>
                <th scope="col" className="align-right">
                  Quantity
                </th>
                <th scope="col" className="align-right">
                  Unit price
                </th>
                <th scope="col" className="align-right">
                  Total
                </th>
                <th scope="col" className="align-right">
                  Allocated
                </th>
                <th scope="col" className="align-right">
                  Shipped
                </th>
                <th scope="col">Ready</th>
                {canEditLines && (
                  <th scope="col">
                    <span className="sr-only">Edit or remove</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {order.lines.map((l) => (
                <tr key={l.id}>
                  <td className="num">{l.line_number}</td>
                  <td>
                    <div className="cell-stack">
                      <span className="cell-strong">{l.product_sku ?? `#${l.product_id}`}</span>
                      {l.product_name && <span className="cell-sub">{l.product_name}</span>}
                    </div>
                  </td>
                  <td className="align-right num">{formatQty(l.quantity)}</td>
                  <td className="align-right num">
                    {l.price_level_name ? (
                      <span className="cell-stack">
                        <span>{formatMoney(l.unit_price)}</span>
                        <span className="cell-sub" title={`Priced by the customer's price level ${l.price_level_name}`}>
                          (
                          {l.list_price && (
                            <>
                              list <s>{formatMoney(l.list_price)}</s>,{' '}
                            </>
                          )}
                          {l.price_level_name})
                        </span>
                      </span>
                    ) : (
                      formatMoney(l.unit_price)
                    )}
                  </td>
                  <td className="align-right num">{formatMoney(l.total)}</td>
                  <td className="align-right num">{formatQty(l.quantity_allocated)}</td>
                  <td className="align-right num">{formatQty(l.quantity_shipped)}</td>
                  <td>
                    <Badge tone={l.is_ready ? 'success' : 'warning'}>{l.is_ready ? 'Ready' : 'Short'}</Badge>
                  </td>
                  {canEditLines && (
                    <td className="row-actions">
                      <Button size="sm" variant="ghost" icon={<Pencil size={14} />} aria-label={`Edit line ${l.line_number}`} onClick={() => setEditingLine(l)} />
                      <Button size="sm" variant="ghost" icon={<Trash2 size={14} />} aria-label={`Remove line ${l.line_number}`} onClick={() => setRemovingLine(l)} />
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
      <div className="wo-grid">
        <section className="card card--pad" aria-labelledby="so-readiness">
          <h2 id="so-readiness" className="section-title">
            Ready to ship?
          </h2>
          {blocking.error ? (
            <ErrorState compact error={blocking.error} onRetry={() => void blocking.refetch()} />
          ) : blocking.isPending ? (
            <Skeleton width="60%" />
          ) : blocking.data.can_ship ? (
            <p className="so-readiness" data-testid="ship-readiness">
              <Badge tone="success">Nothing blocks it</Badge> Stock covers every line and production is done: the order can ship.
            </p>
          ) : (
            <>
              <ul className="so-issues" aria-label="Blocking issues" data-testid="ship-readiness">
                {blocking.data.blocking_issues.map((issue) => (
                  <li key={issue}>{issue}</li>
                ))}
              </ul>
              {blocking.data.status_summary.estimated_ready_date && (
                <p className="so-readiness" data-testid="estimated-ready">
                  Estimated ready <strong>{blocking.data.status_summary.estimated_ready_date}</strong>
                  {blocking.data.status_summary.days_until_ready != null && ` (in ${blocking.data.status_summary.days_until_ready} days)`}, when what is on its way arrives.
                </p>
              )}
              {blocking.data.resolution_actions.length > 0 && (
                <>
                  <h3 className="so-subtitle">Next steps</h3>
                  <ol className="so-issues" aria-label="Next steps">
                    {blocking.data.resolution_actions.map((a) => (
                      <li key={`${a.reference_type}-${a.reference_id}-${a.priority}`}>
                        <ActionTarget type={a.reference_type} id={a.reference_id}>
                          {a.action}
                        </ActionTarget>
                        <span className="cell-sub"> · {a.impact}</span>
                      </li>
                    ))}
                  </ol>
                </>
              )}
            </>
          )}
        </section>
        <section className="card card--pad" aria-labelledby="so-materials">
          <h2 id="so-materials" className="section-title">
            Materials
          </h2>
          {materials.error ? (
            <ErrorState compact error={materials.error} onRetry={() => void materials.refetch()} />
          ) : materials.isPending ? (
            <Skeleton width="60%" />
          ) : materials.data.requirements.length === 0 ? (
            <EmptyState compact title="Nothing left to make or pack" description="Materials appear here while lines still need production or packaging." />
          ) : (
            <div className="so-scroll">
              <table className="table table--compact" aria-label="Material requirements">
                <thead>
                  <tr>
                    <th scope="col">Component</th>
                    <th scope="col" className="align-right">
                      Needed
                    </th>
                    <th scope="col" className="align-right">
                      Available
                    </th>
                    <th scope="col" className="align-right">
                      Short
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {materials.data.requirements.map((r) => (
                    <tr key={r.product_id}>
                      <td>
                        <div className="cell-stack">
                          <span className="cell-strong">{r.sku}</span>
                          <span className="cell-sub">{r.name}</span>
                        </div>
                      </td>
                      <td className="align-right num">
                        {formatQty(r.quantity_required)} {r.unit}
                      </td>
                      <td className="align-right num">{formatQty(r.quantity_available)}</td>
                      <td className="align-right num">
                        {Number(r.shortage) > 0 ? <Badge tone="warning">{formatQty(r.shortage)}</Badge> : '—'}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </section>
      </div>
      <div className="wo-grid">
        <section className="card card--pad" aria-labelledby="so-production">
          <h2 id="so-production" className="section-title">
            Required orders
          </h2>
          {required.error ? (
            <ErrorState compact error={required.error} onRetry={() => void required.refetch()} />
          ) : required.isPending ? (
            <Skeleton width="60%" />
          ) : required.data.production_orders.length === 0 ? (
            <EmptyState compact title="No production orders" description="Confirming the order creates production orders for what stock cannot cover." />
          ) : (
            <div className="so-scroll">
              <table className="table table--compact" aria-label="Required orders">
                <thead>
                  <tr>
                    <th scope="col">Production order</th>
                    <th scope="col">Status</th>
                    <th scope="col" className="align-right">
                      Quantity
                    </th>
                    <th scope="col">Due</th>
                  </tr>
                </thead>
                <tbody>
                  {required.data.production_orders.map((w) => (
                    <tr key={w.id}>
                      <td>
                        <div className="cell-stack">
                          <Link to={`/admin/production/${w.id}`} className="mono">
                            {w.code}
                          </Link>
                          <span className="cell-sub">{w.product_sku ?? w.product_name ?? `#${w.product_id}`}</span>
                        </div>
                      </td>
                      <td>
                        <Badge tone={WO_TONE[w.status] ?? 'neutral'}>{humanize(w.status)}</Badge>
                      </td>
                      <td className="align-right num">
                        {formatQty(w.quantity_completed)}/{formatQty(w.quantity_ordered)}
                      </td>
                      <td>{w.due_date ?? '—'}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <div className="so-subhead">
            <h3 className="section-subtitle">Shipments</h3>
            {canShippingDetails && (
              <Button size="sm" variant="ghost" icon={<Package size={14} />} onClick={() => setDialog('shipping')}>
                Shipping details
              </Button>
            )}
          </div>
          {shippedWith && (
            <p className="cell-sub" data-testid="shipping-details">
              {shippedWith}
            </p>
          )}
          {shipments.error ? (
            <ErrorState compact error={shipments.error} onRetry={() => void shipments.refetch()} />
          ) : shipments.isPending ? (
            <Skeleton width="60%" />
          ) : shipments.data.items.length === 0 ? (
            <p className="muted">Not shipped yet.</p>
          ) : (
            <ul className="cc-list" aria-label="Shipments">
              {shipments.data.items.map((s) => (
                <li key={s.id} className="cc-item">
                  <span className="mono">{s.shipment_number}</span>
                  <span className="cell-sub">
                    {s.carrier} {s.service} · {s.tracking_number ?? '—'}
                  </span>
                  <span className="cell-sub">{formatDateTime(s.shipped_at)}</span>
                </li>
              ))}
            </ul>
          )}
          {(shipTo || canAddress) && (
            <>
              <div className="so-subhead">
                <h3 className="section-subtitle">Ship to</h3>
                {canAddress && (
                  <Button size="sm" variant="ghost" icon={<Pencil size={14} />} onClick={() => setDialog('address')}>
                    Change address
                  </Button>
                )}
              </div>
              {shipTo ? (
                <p className="so-address" data-testid="ship-to">
                  {shipTo}
                </p>
              ) : (
                <p className="muted">No address yet; the order needs one to ship.</p>
              )}
            </>
          )}
        </section>
        <section className="card card--pad" aria-labelledby="so-events">
          <div className="wo-actions" style={{ justifyContent: 'space-between' }}>
            <h2 id="so-events" className="section-title">
              History
            </h2>
            {admin && (
              <Button size="sm" variant="secondary" icon={<MessageSquarePlus size={14} />} onClick={() => setDialog('note')}>
                Add note
              </Button>
            )}
          </div>
          {events.error ? (
            <ErrorState compact error={events.error} onRetry={() => void events.refetch()} />
          ) : events.isPending ? (
            <Skeleton width="60%" />
          ) : events.data.length === 0 ? (
            <p className="muted">No events yet.</p>
          ) : (
            <ol className="so-events" aria-label="Order history">
              {events.data.map((e) => (
                <li key={e.id} className="cell-stack">
                  <span className="cell-strong">
                    {e.event_type === 'note' && <Badge tone="info">Note</Badge>}
                    {e.event_type === 'message' && <Badge>Message</Badge>} {e.title}
                  </span>
                  <span className="cell-sub">
                    {formatDateTime(e.created_at)}
                    {e.description ? ` · ${e.description}` : ''}
                  </span>
                </li>
              ))}
            </ol>
          )}
        </section>
      </div>
      <section className="card card--pad" aria-labelledby="so-tracking">
        <div className="wo-actions" style={{ justifyContent: 'space-between' }}>
          <h2 id="so-tracking" className="section-title">
            Tracking
          </h2>
          {canTrack && (
            <Button size="sm" variant="secondary" icon={<MapPin size={14} />} onClick={() => setDialog('tracking')}>
              Tracking update
            </Button>
          )}
        </div>
        {tracking.error ? (
          <ErrorState compact error={tracking.error} onRetry={() => void tracking.refetch()} />
        ) : tracking.isPending ? (
          <Skeleton width="60%" />
        ) : tracking.data.length === 0 ? (
          <p className="muted">{order.shipped_at ? 'No tracking updates yet.' : 'Tracking updates can be recorded once the order ships.'}</p>
        ) : (
          <div className="so-scroll">
            <table className="table table--compact" aria-label="Tracking timeline">
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Event</th>
                  <th scope="col">Location</th>
                  <th scope="col">Description</th>
                  <th scope="col">Source</th>
                </tr>
              </thead>
              <tbody>
                {tracking.data.map((e) => (
                  <tr key={e.id}>
                    <td className="so-when">{formatDateTime(e.event_at)}</td>
                    <td>
                      <Badge tone={SHIPPING_EVENT_TONE[e.event_type] ?? 'neutral'}>{SHIPPING_EVENT_LABEL[e.event_type] ?? humanize(e.event_type)}</Badge>
                    </td>
                    <td>{e.location ?? '—'}</td>
                    <td>{e.description ?? '—'}</td>
                    <td>{SHIPPING_EVENT_SOURCE_LABEL[e.source] ?? humanize(e.source)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <OrderMessagesCard order={order} />
      {admin && <OrderInvoicesCard order={order} />}
      {admin && (
        <section className="card card--pad" aria-labelledby="so-payments">
          <div className="wo-actions" style={{ justifyContent: 'space-between' }}>
            <h2 id="so-payments" className="section-title">
              Payments
            </h2>
            <div className="wo-actions">
              <Button size="sm" variant="secondary" icon={<CreditCard size={14} />} onClick={() => setDialog('payment-details')}>
                Payment details
              </Button>
              {paid > 0 && (
                <Button size="sm" variant="secondary" icon={<Undo2 size={14} />} onClick={() => setDialog('refund')}>
                  Refund
                </Button>
              )}
            </div>
          </div>
          {(order.payment_method || order.payment_transaction_id) && (
            <p className="cell-sub" data-testid="payment-details">
              {[order.payment_method, order.payment_transaction_id && `ref. ${order.payment_transaction_id}`].filter(Boolean).join(' · ')}
            </p>
          )}
          {payments.error ? (
            <ErrorState compact error={payments.error} onRetry={() => void payments.refetch()} />
          ) : payments.isPending ? (
            <Skeleton width="60%" />
          ) : payments.data.items.length === 0 ? (
            <p className="muted">No payments recorded.</p>
          ) : (
            <table className="table table--compact" aria-label="Payments">
              <thead>
                <tr>
                  <th scope="col">Payment</th>
                  <th scope="col">Type</th>
                  <th scope="col">Method</th>
                  <th scope="col">Status</th>
                  <th scope="col" className="align-right">
                    Amount
                  </th>
                  <th scope="col">Date</th>
                </tr>
              </thead>
              <tbody>
                {payments.data.items.map((p) => (
                  <tr key={p.id}>
                    <td className="mono">{p.payment_number}</td>
                    <td>{humanize(p.payment_type)}</td>
                    <td>{humanize(p.payment_method)}</td>
                    <td>{humanize(p.status)}</td>
                    <td className="align-right num">{formatMoney(p.amount)}</td>
                    <td>{formatDateTime(p.payment_date)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
      )}
      <ShipDialog order={order} open={dialog === 'ship'} onClose={() => setDialog(null)} />
      <NoteDialog order={order} open={dialog === 'note'} onClose={() => setDialog(null)} />
      <TrackingDialog order={order} open={dialog === 'tracking'} onClose={() => setDialog(null)} />
      {canAddress && <AddressDialog order={order} open={dialog === 'address'} onClose={() => setDialog(null)} />}
      {canShippingDetails && <ShippingDetailsDialog order={order} open={dialog === 'shipping'} onClose={() => setDialog(null)} />}
      {admin && <PaymentDetailsDialog order={order} open={dialog === 'payment-details'} onClose={() => setDialog(null)} />}
      <PaymentDialog mode="payment" orderId={order.id} orderLabel={order.order_number} open={dialog === 'payment'} onClose={() => setDialog(null)} />
      <PaymentDialog
        key={`refund-${paid}`}
        mode="refund"
        orderId={order.id}
        orderLabel={order.order_number}
        maxRefund={paid}
        open={dialog === 'refund'}
        onClose={() => setDialog(null)}
      />
      {canEditLines && <LineEditDialog order={order} line={editingLine} onClose={() => setEditingLine(null)} />}
      {canEditLines && <LineAddDialog order={order} open={addingLine} onClose={() => setAddingLine(false)} />}
      {canCloseShort && <CloseShortDialog order={order} open={dialog === 'close-short'} onClose={() => setDialog(null)} />}
      <ConfirmDialog
        open={removingLine !== null}
        title={`Remove line ${removingLine?.line_number ?? ''}?`}
        message={
          <div className="so-confirm">
            <p>
              {[removingLine?.product_sku, removingLine?.product_name].filter(Boolean).join(' · ')} is removed from {order.order_number}: its reservation is given
              back and the totals are recomputed.
            </p>
            <FormError title="The line was not removed" message={removeLineError} />
          </div>
        }
        confirmLabel="Remove line"
        cancelLabel="Keep line"
        busy={removeLine.isPending}
        onConfirm={() => removingLine && removeLine.mutate(removingLine)}
        onCancel={closeRemoveLine}
      />
      <ConfirmDialog
        open={dialog === 'cancel'}
        title={`Cancel ${order.order_number}?`}
        message="Its stock reservations are released. Orders with running production orders cannot be cancelled."
        confirmLabel="Cancel order"
        cancelLabel="Keep order"
        busy={cancel.isPending}
        onConfirm={() => cancel.mutate()}
        onCancel={() => setDialog(null)}
      />
      <ConfirmDialog
        open={dialog === 'delete'}
        title={`Delete ${order.order_number}?`}
        message="The order is removed for good."
        confirmLabel="Delete order"
        busy={remove.isPending}
        onConfirm={() => remove.mutate()}
        onCancel={() => setDialog(null)}
      />
    </div>
  );
}

/** A suggested step, linked to the page where it is done when there is one. */
function ActionTarget({ type, id, children }: { type: string; id: number; children: ReactNode }) {
  if (type === 'production_order') return <Link to={`/admin/production/${id}`}>{children}</Link>;
  if (type === 'purchase_order' || type === 'product') return <Link to="/admin/purchasing">{children}</Link>;
  if (type === 'make_product') return <Link to="/admin/production">{children}</Link>;
  return <strong>{children}</strong>;
}
