import { useState } from 'react';
import { Link } from 'react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { PackageCheck, ShoppingCart } from 'lucide-react';
import { errorMessage } from '../../api/errors';
import { queryKeys } from '../../api/queryKeys';
import { Button } from '../../components/Button';
import { EmptyState, ErrorState, Skeleton } from '../../components/States';
import { useToast } from '../../components/Toast';
import { displayCurrency, displayLocale, formatMoney, formatQty } from '../../lib/format';
import { useVendorOptions } from '../purchasing/vendorOptions';
import { CreatedPanel } from './PlannedOrders';
import { groupBuyList, planningApi, purchaseOrderHref, type BuyListItem, type BuyListOrderResult, type CreatedOrder, type IncomingDetail } from './planningApi';

const COLUMNS = 11;

/** A unit cost keeps the places that matter for cheap units (a gram of filament is $0.02). */
const formatUnitCost = (v: string) =>
  Number.isFinite(Number(v))
    ? new Intl.NumberFormat(displayLocale(), { style: 'currency', currency: displayCurrency(), minimumFractionDigits: 2, maximumFractionDigits: 4 }).format(Number(v))
    : '—';

function Incoming({ item }: { item: BuyListItem }) {
  if (item.incoming_details.length === 0) return <span className="num">{formatQty(item.incoming_qty)}</span>;
  return (
    <div className="cell-stack">
      <span className="num">{formatQty(item.incoming_qty)}</span>
      <ul className="plan-incoming" aria-label={`Incoming ${item.sku}`}>
        {item.incoming_details.map((d: IncomingDetail) => (
          <li key={`${d.purchase_order_id}-${d.expected_date ?? ''}-${d.quantity}`}>
            <Link to={purchaseOrderHref(d.purchase_order_id)} className="mono">
              {d.po_number}
            </Link>{' '}
            {formatQty(d.quantity)}
            {d.expected_date ? ` by ${d.expected_date}` : ''}
            {d.status === 'draft' && <span className="plan-draft"> (draft)</span>}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The live buy list: bought items still short after netting, by preferred vendor, ordered as draft POs. */
export function BuyList() {
  const queryClient = useQueryClient();
  const toast = useToast();
  const list = useQuery({ queryKey: queryKeys.planning.buyList(), queryFn: ({ signal }) => planningApi.buyList(signal) });
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const [vendorForRest, setVendorForRest] = useState('');
  const [result, setResult] = useState<BuyListOrderResult | null>(null);
  const items = list.data?.items ?? [];
  const groups = groupBuyList(items);
  const chosen = items.filter((i) => selected.has(i.product_id));
  const chosenWithoutVendor = chosen.filter((i) => i.preferred_vendor_id === null);
  const vendors = useVendorOptions(chosenWithoutVendor.length > 0);

  const order = useMutation({
    mutationFn: () =>
      planningApi.orderBuyList({
        item_ids: chosen.map((i) => i.product_id),
        vendor_id: chosenWithoutVendor.length > 0 && vendorForRest ? Number(vendorForRest) : null,
      }),
    onSuccess: async (r) => {
      setResult(r);
      setSelected(new Set());
      setVendorForRest('');
      if (r.purchase_orders.length) toast.success(r.purchase_orders.length === 1 ? 'Purchase order created' : 'Purchase orders created', r.message);
      else toast.info('Nothing ordered', r.message);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.planning.all }),
        queryClient.invalidateQueries({ queryKey: queryKeys.purchaseOrders.all }),
        queryClient.invalidateQueries({ queryKey: queryKeys.purchasing.all }),
      ]);
    },
    onError: (err) => toast.error('No purchase orders created', errorMessage(err)),
  });

  const toggle = (ids: number[], on: boolean) =>
    setSelected((s) => {
      const next = new Set(s);
      for (const id of ids) {
        if (on) next.add(id);
        else next.delete(id);
      }
      return next;
    });

  const created: CreatedOrder[] = (result?.purchase_orders ?? []).map((po) => ({ kind: 'purchase', id: po.id, code: po.po_number, plannedIds: [] }));
  const resultPanel = result && (
    <>
      {created.length > 0 ? (
        <CreatedPanel created={created} title="Draft purchase orders created" onDismiss={() => setResult(null)}>
          <p className="plan-created__note">
            {result.message}
            {result.skipped_item_ids.length > 0 && ` ${result.skipped_item_ids.length} item${result.skipped_item_ids.length === 1 ? ' was' : 's were'} left out: no vendor is known for ${result.skipped_item_ids.length === 1 ? 'it' : 'them'}.`}
          </p>
        </CreatedPanel>
      ) : (
        <div className="alert alert--warning" role="status">
          <span>
            {result.message}
            {result.skipped_item_ids.length > 0 ? ' No vendor is known for the items chosen: choose one for them and try again.' : ''}
          </span>
        </div>
      )}
    </>
  );

  if (list.isPending) {
    return (
      <div className="plan-buy" aria-busy="true" aria-label="Loading the buy list">
        <Skeleton width="100%" height={64} />
        <Skeleton width="100%" height={220} />
      </div>
    );
  }
  if (list.isError) return <ErrorState error={list.error} onRetry={() => void list.refetch()} />;

  const { summary } = list.data;
  if (items.length === 0) {
    return (
      <div className="plan-buy">
        {resultPanel}
        <div className="card">
          <EmptyState
            icon={<PackageCheck size={22} />}
            title="Nothing is short"
            description="Every bought item is covered by stock, open purchase orders and safety stock for the open sales and production orders."
          />
        </div>
      </div>
    );
  }
  const allSelected = chosen.length === items.length;
  return (
    <div className="plan-buy">
      {resultPanel}
      <dl className="stat-row stat-row--compact">
        <div className="stat stat--warning">
          <dt>Items short</dt>
          <dd>{summary.components_short}</dd>
        </div>
        <div className="stat">
          <dt>Estimated buy value</dt>
          <dd>{formatMoney(summary.total_estimated_buy_value)}</dd>
        </div>
        <div className="stat">
          <dt>Open sales orders</dt>
          <dd>{summary.open_sales_orders_included}</dd>
        </div>
        <div className="stat">
          <dt>Open production orders</dt>
          <dd>{summary.open_production_orders_included}</dd>
        </div>
        <div className="stat">
          <dt>On draft POs</dt>
          <dd>{formatQty(summary.draft_incoming_qty)}</dd>
        </div>
      </dl>
      <div className="toolbar" role="group" aria-label="Selection">
        <Button variant="primary" icon={<ShoppingCart size={16} />} disabled={chosen.length === 0} loading={order.isPending} onClick={() => order.mutate()}>
          {chosen.length ? `Create POs for ${chosen.length} selected` : 'Create POs'}
        </Button>
        {chosenWithoutVendor.length > 0 && (
          <label className="inline-field">
            <span>
              Vendor for {chosenWithoutVendor.length} item{chosenWithoutVendor.length === 1 ? '' : 's'} without one
            </span>
            <select className="input input--select input--sm" value={vendorForRest} onChange={(e) => setVendorForRest(e.target.value)}>
              <option value="">Leave them out</option>
              {vendors.options.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </select>
          </label>
        )}
        <span className="muted" aria-live="polite">
          {chosen.length ? `${chosen.length} of ${items.length} selected` : 'Tick the items to order: one draft purchase order per vendor.'}
        </span>
        {chosen.length > 0 && (
          <Button size="sm" variant="ghost" onClick={() => setSelected(new Set())}>
            Clear selection
          </Button>
        )}
      </div>
      <div className="datatable">
        <div className="datatable__scroll">
          <table className="table plan-buy__table" aria-label="Buy list">
            <thead>
              <tr>
                <th scope="col" className="shrink">
                  <input type="checkbox" aria-label="Select every item" checked={allSelected} onChange={() => setSelected(allSelected ? new Set() : new Set(items.map((i) => i.product_id)))} />
                </th>
                <th scope="col">Item</th>
                <th scope="col" className="shrink">
                  Need by
                </th>
                <th scope="col" className="align-right shrink">
                  Demand
                </th>
                <th scope="col" className="align-right shrink hide-tablet">
                  Available
                </th>
                <th scope="col" className="align-right">
                  Incoming
                </th>
                <th scope="col" className="align-right shrink hide-tablet">
                  Safety
                </th>
                <th scope="col" className="align-right shrink">
                  Short
                </th>
                <th scope="col" className="align-right shrink">
                  Suggested
                </th>
                <th scope="col" className="align-right shrink hide-tablet">
                  Unit cost
                </th>
                <th scope="col" className="align-right shrink">
                  Est. value
                </th>
              </tr>
            </thead>
            {groups.map((g) => {
              const ids = g.items.map((i) => i.product_id);
              const groupSelected = ids.every((id) => selected.has(id));
              return (
                <tbody key={g.vendorId ?? 'none'} aria-label={g.vendorName}>
                  <tr className="plan-group">
                    <td className="shrink">
                      <input type="checkbox" aria-label={`Select every item from ${g.vendorName}`} checked={groupSelected} onChange={() => toggle(ids, !groupSelected)} />
                    </td>
                    <th scope="rowgroup" colSpan={COLUMNS - 2} className="plan-group__name">
                      {g.vendorName}
                      <span className="muted">
                        {' '}
                        · {g.items.length} item{g.items.length === 1 ? '' : 's'}
                      </span>
                      {g.vendorId === null && <span className="muted"> · choose a vendor when ordering, or they are left out</span>}
                    </th>
                    <td className="align-right num plan-group__subtotal">{formatMoney(g.subtotal)}</td>
                  </tr>
                  {g.items.map((i) => (
                    <tr key={i.product_id}>
                      <td className="shrink">
                        <input type="checkbox" aria-label={`Select ${i.sku}`} checked={selected.has(i.product_id)} onChange={() => toggle([i.product_id], !selected.has(i.product_id))} />
                      </td>
                      <td>
                        <div className="cell-stack">
                          <span className="cell-strong plan-sku">{i.sku}</span>
                          <span className="cell-sub">{i.name}</span>
                        </div>
                      </td>
                      <td className="shrink">{i.earliest_need ?? '—'}</td>
                      <td className="align-right num">{formatQty(i.gross_demand)}</td>
                      <td className={`align-right num hide-tablet${Number(i.available) < 0 ? ' text-danger' : ''}`}>{formatQty(i.available)}</td>
                      <td className="align-right">
                        <Incoming item={i} />
                      </td>
                      <td className="align-right num hide-tablet">{formatQty(i.safety_stock)}</td>
                      <td className="align-right num text-danger">{formatQty(i.net_shortage)}</td>
                      <td className="align-right num cell-strong">{formatQty(i.suggested_qty, i.unit)}</td>
                      <td className="align-right num hide-tablet">{formatUnitCost(i.unit_cost)}</td>
                      <td className="align-right num">{formatMoney(i.estimated_buy_value)}</td>
                    </tr>
                  ))}
                  <tr className="plan-subtotal">
                    <td />
                    <th scope="row" colSpan={COLUMNS - 2} className="align-right">
                      Subtotal {g.vendorName}
                    </th>
                    <td className="align-right num">{formatMoney(g.subtotal)}</td>
                  </tr>
                </tbody>
              );
            })}
            <tfoot>
              <tr>
                <td />
                <th scope="row" colSpan={COLUMNS - 2} className="align-right">
                  Total
                </th>
                <td className="align-right num">{formatMoney(summary.total_estimated_buy_value)}</td>
              </tr>
            </tfoot>
          </table>
        </div>
      </div>
    </div>
  );
}
