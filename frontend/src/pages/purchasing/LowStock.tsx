import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { PackageCheck, RotateCcw } from 'lucide-react';
import { errorMessage } from '../../api/errors';
import { Button } from '../../components/Button';
import { EmptyState, ErrorState, Skeleton } from '../../components/States';
import { useToast } from '../../components/Toast';
import { formatMoney, formatQty } from '../../lib/format';
import { purchasingApi } from './purchasingApi';
import { queryKeys } from '../../api/queryKeys';

/** Items at or below their reorder point (open orders counted) and draft orders made from
 *  them: from the selected items (every item when none is selected) or one item at a time. */
export function LowStock({ onOpen }: { onOpen: (id: number) => void }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const list = useQuery({ queryKey: queryKeys.purchasing.lowStock(), queryFn: ({ signal }) => purchasingApi.lowStock(signal) });
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const rows = list.data ?? [];
  // What is still suggested of what was ticked (a refetch may drop items).
  const chosen = rows.filter((s) => selected.has(s.item_id)).map((s) => s.item_id);
  const invalidate = async () => {
    await queryClient.invalidateQueries({ queryKey: queryKeys.purchasing.all });
    await queryClient.invalidateQueries({ queryKey: queryKeys.purchaseOrders.all });
  };
  const make = useMutation({
    mutationFn: (itemIds: number[]) => purchasingApi.fromLowStock(itemIds),
    onSuccess: async (r) => {
      toast.success('Draft orders created', r.message + (r.skipped_item_ids.length ? ` (${r.skipped_item_ids.length} item(s) have no vendor yet)` : ''));
      setSelected(new Set());
      await invalidate();
      if (r.purchase_orders[0]) onOpen(r.purchase_orders[0].id);
    },
    onError: (err) => toast.error('Not created', errorMessage(err)),
  });
  const reorder = useMutation({
    mutationFn: (itemId: number) => purchasingApi.quickReorder(itemId),
    onSuccess: async (po) => {
      toast.success('Draft order created', `${po.po_number} from ${po.vendor_name}.`);
      await invalidate();
      onOpen(po.id);
    },
    onError: (err) => toast.error('Not reordered', errorMessage(err)),
  });
  if (list.isPending) return <Skeleton height={120} />;
  if (list.isError) return <ErrorState error={list.error} onRetry={() => void list.refetch()} />;
  if (rows.length === 0) return <EmptyState icon={<PackageCheck size={22} />} title="Nothing to reorder" description="Every item with a reorder point is covered by stock or open orders." />;
  const allSelected = chosen.length === rows.length;
  const toggle = (id: number) =>
    setSelected((s) => {
      const next = new Set(s);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  return (
    <div className="low-stock">
      <div className="toolbar" role="group" aria-label="Selection">
        <Button variant="primary" onClick={() => make.mutate(chosen.length ? chosen : rows.map((s) => s.item_id))} loading={make.isPending}>
          {chosen.length ? `Create draft orders for ${chosen.length} selected` : 'Create draft orders'}
        </Button>
        <span className="muted" aria-live="polite">
          {chosen.length ? `${chosen.length} of ${rows.length} selected` : 'Every item; tick some to order only those.'}
        </span>
        {chosen.length > 0 && (
          <Button size="sm" variant="ghost" onClick={() => setSelected(new Set())}>
            Clear selection
          </Button>
        )}
      </div>
      <table className="table" aria-label="Low stock">
        <thead>
          <tr>
            <th scope="col">
              <input type="checkbox" aria-label="Select every item" checked={allSelected} onChange={() => setSelected(allSelected ? new Set() : new Set(rows.map((s) => s.item_id)))} />
            </th>
            <th scope="col">Item</th>
            <th scope="col" className="align-right">
              Available
            </th>
            <th scope="col" className="align-right">
              On order
            </th>
            <th scope="col" className="align-right">
              Reorder point
            </th>
            <th scope="col" className="align-right">
              Suggested
            </th>
            <th scope="col">Vendor</th>
            <th scope="col" className="align-right">
              Last price
            </th>
            <th scope="col">
              <span className="sr-only">Reorder</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((s) => (
            <tr key={s.item_id}>
              <td>
                <input type="checkbox" aria-label={`Select ${s.sku}`} checked={selected.has(s.item_id)} onChange={() => toggle(s.item_id)} />
              </td>
              <td>
                <span className="mono">{s.sku}</span> {s.name}
              </td>
              <td className="align-right num">{formatQty(s.available_qty, s.unit)}</td>
              <td className="align-right num">{formatQty(s.on_order_qty, s.unit)}</td>
              <td className="align-right num">{formatQty(s.reorder_point, s.unit)}</td>
              <td className="align-right num">{formatQty(s.suggested_qty, s.purchase_unit)}</td>
              <td>{s.vendor_name ?? <span className="muted">No vendor yet</span>}</td>
              <td className="align-right num">{s.last_price ? formatMoney(s.last_price) : '—'}</td>
              <td className="row-actions">
                <Button
                  size="sm"
                  icon={<RotateCcw size={14} />}
                  aria-label={`Reorder ${s.sku}`}
                  title={s.vendor_id === null ? 'No vendor is known for this item yet' : `A draft order from ${s.vendor_name ?? 'its vendor'}`}
                  disabled={s.vendor_id === null}
                  loading={reorder.isPending && reorder.variables === s.item_id}
                  onClick={() => reorder.mutate(s.item_id)}
                >
                  Reorder
                </Button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
