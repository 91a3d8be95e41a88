import { useQuery } from '@tanstack/react-query';
import { inventoryApi } from '../../api/endpoints';
import { errorMessage } from '../../api/errors';
import type { Item } from '../../api/model';
import { useAuth } from '../../auth/AuthContext';
import { isAdmin } from '../../auth/roles';
import { Skeleton } from '../../components/States';
import { formatDateTime, formatQty, toNumber } from '../../lib/format';
import { queryKeys } from '../../api/queryKeys';

/**
 * The item's stock: totals over all locations (from the item), and for administrators the
 * split by location (the stock summary is an admin route, spec 4.5).
 */
export function ItemStock({ item }: { item: Item }) {
  const { user } = useAuth();
  const admin = isAdmin(user);
  const perLocation = useQuery({
    queryKey: queryKeys.inventory.summary({ product_id: item.id, show_zero: true }),
    queryFn: ({ signal }) => inventoryApi.summary({ product_id: item.id, show_zero: true, limit: 500, offset: 0 }, signal),
    enabled: admin,
    staleTime: 0,
  });
  const rows = perLocation.data?.items ?? [];
  const unit = item.unit;
  return (
    <fieldset className="fieldset" aria-label="Stock">
      <legend>Stock</legend>
      <dl className="stat-row stat-row--compact" data-testid="item-stock-totals">
        <div className="stat">
          <dt>On hand</dt>
          <dd>{formatQty(item.on_hand_qty, unit)}</dd>
        </div>
        <div className="stat">
          <dt>Allocated</dt>
          <dd>{formatQty(item.allocated_qty, unit)}</dd>
        </div>
        <div className={`stat${(toNumber(item.available_qty) ?? 0) < 0 ? ' stat--danger' : ''}`}>
          <dt>Available</dt>
          <dd>{formatQty(item.available_qty, unit)}</dd>
        </div>
      </dl>
      {admin &&
        (perLocation.isPending ? (
          <Skeleton height={60} />
        ) : perLocation.error ? (
          <p className="field__error">Stock by location could not be loaded: {errorMessage(perLocation.error)}</p>
        ) : rows.length === 0 ? (
          <p className="muted">No stock in any location yet.</p>
        ) : (
          <div className="datatable__frame">
            <table className="table table--compact" aria-label="Stock by location">
              <thead>
                <tr>
                  <th scope="col">Location</th>
                  <th scope="col" className="align-right shrink">
                    On hand
                  </th>
                  <th scope="col" className="align-right shrink">
                    Allocated
                  </th>
                  <th scope="col" className="align-right shrink">
                    Available
                  </th>
                  <th scope="col" className="shrink hide-tablet">
                    Last counted
                  </th>
                </tr>
              </thead>
              <tbody>
                {rows.map((r) => (
                  <tr key={r.inventory_id}>
                    <td>
                      <span className="mono">{r.location_code}</span> <span className="muted">{r.location_name}</span>
                    </td>
                    <td className="align-right shrink num">{formatQty(r.on_hand_quantity)}</td>
                    <td className="align-right shrink num">{formatQty(r.allocated_quantity)}</td>
                    <td className={`align-right shrink num${(toNumber(r.available_quantity) ?? 0) < 0 ? ' text-danger' : ''}`}>{formatQty(r.available_quantity)}</td>
                    <td className="shrink hide-tablet muted">{r.last_counted ? formatDateTime(r.last_counted) : 'Never'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ))}
    </fieldset>
  );
}
