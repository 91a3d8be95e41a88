import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { PackageCheck } from 'lucide-react';
import { errorMessage } from '../../api/errors';
import { Button } from '../../components/Button';
import { EmptyState, ErrorState, Skeleton } from '../../components/States';
import { useToast } from '../../components/Toast';
import { formatMoney, formatQty } from '../../lib/format';
import { purchasingApi } from './purchasingApi';

/** Items at or below their reorder point (open orders counted) and draft orders made from them. */
export function LowStock({ onOpen }: { onOpen: (id: number) => void }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const list = useQuery({ queryKey: ['purchasing', 'low-stock'], queryFn: ({ signal }) => purchasingApi.lowStock(signal) });
  const make = useMutation({
    mutationFn: () => purchasingApi.fromLowStock((list.data ?? []).map((s) => s.item_id)),
    onSuccess: async (r) => {
      toast.success('Draft orders created', r.message + (r.skipped_item_ids.length ? ` (${r.skipped_item_ids.length} item(s) have no vendor yet)` : ''));
      await queryClient.invalidateQueries({ queryKey: ['purchasing'] });
      await queryClient.invalidateQueries({ queryKey: ['purchase-orders'] });
      if (r.purchase_orders[0]) onOpen(r.purchase_orders[0].id);
    },
    onError: (err) => toast.error('Not created', errorMessage(err)),
  });
  if (list.isPending) return <Skeleton height={120} />;
  if (list.isError) return <ErrorState error={list.error} onRetry={() => void list.refetch()} />;
  const rows = list.data;
  if (rows.length === 0) return <EmptyState icon={<PackageCheck size={22} />} title="Nothing to reorder" description="Every item with a reorder point is covered by stock or open orders." />;
  return (
    <div className="stack">
      <div>
        <Button variant="primary" onClick={() => make.mutate()} loading={make.isPending}>
          Create draft orders
        </Button>
      </div>
      <table className="table" aria-label="Low stock">
        <thead>
          <tr>
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
          </tr>
        </thead>
        <tbody>
          {rows.map((s) => (
            <tr key={s.item_id}>
              <td>
                <span className="mono">{s.sku}</span> {s.name}
              </td>
              <td className="align-right num">{formatQty(s.available_qty, s.unit)}</td>
              <td className="align-right num">{formatQty(s.on_order_qty, s.unit)}</td>
              <td className="align-right num">{formatQty(s.reorder_point, s.unit)}</td>
              <td className="align-right num">{formatQty(s.suggested_qty, s.purchase_unit)}</td>
              <td>{s.vendor_name ?? '—'}</td>
              <td className="align-right num">{s.last_price ? formatMoney(s.last_price) : '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
