import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { ShoppingCart } from 'lucide-react';
import { customersApi } from '../../api/endpoints';
import type { CustomerListRow } from '../../api/model';
import { Modal } from '../../components/Modal';
import { Badge, EmptyState, ErrorState, Skeleton } from '../../components/States';
import { formatDateTime, formatMoney, humanize } from '../../lib/format';
import { ORDER_TONE, PAYMENT_TONE } from '../sales/salesApi';
import { queryKeys } from '../../api/queryKeys';

/** How many of a customer's latest orders the dialog shows. */
const SHOWN = 20;

/** A customer's latest orders (`GET /admin/customers/{id}/orders`), each linking to its page. */
export function CustomerOrdersDialog({ customer, onClose }: { customer: CustomerListRow | null; onClose: () => void }) {
  const orders = useQuery({
    queryKey: queryKeys.customers.orders(customer?.id),
    queryFn: ({ signal }) => customersApi.orders(customer?.id ?? 0, SHOWN, signal),
    enabled: customer !== null,
  });
  const name = customer ? customer.full_name || customer.email : '';
  return (
    <Modal open={customer !== null} onClose={onClose} size="lg" title={`Orders · ${name}`} description={customer ? `The latest ${SHOWN} of ${customer.order_count}, newest first.` : undefined}>
      {orders.error ? (
        <ErrorState compact error={orders.error} onRetry={() => void orders.refetch()} />
      ) : orders.isPending ? (
        <Skeleton width="70%" />
      ) : orders.data.length === 0 ? (
        <EmptyState icon={<ShoppingCart size={22} />} title="No orders yet" description="Orders placed for this customer appear here." />
      ) : (
        <table className="table table--compact" aria-label="Customer orders">
          <thead>
            <tr>
              <th scope="col">Order</th>
              <th scope="col">Status</th>
              <th scope="col">Payment</th>
              <th scope="col" className="align-right">
                Total
              </th>
              <th scope="col" className="align-right">
                Balance due
              </th>
              <th scope="col">Placed</th>
            </tr>
          </thead>
          <tbody>
            {orders.data.map((o) => (
              <tr key={o.id}>
                <td>
                  <Link className="mono" to={`/admin/orders/${o.id}`} onClick={onClose}>
                    {o.order_number}
                  </Link>
                </td>
                <td>
                  <Badge tone={ORDER_TONE[o.status] ?? 'neutral'}>{humanize(o.status)}</Badge>
                </td>
                <td>
                  <Badge tone={PAYMENT_TONE[o.payment_status] ?? 'neutral'}>{humanize(o.payment_status)}</Badge>
                </td>
                <td className="align-right num">{formatMoney(o.grand_total)}</td>
                <td className="align-right num">{formatMoney(o.balance_due)}</td>
                <td>{formatDateTime(o.created_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Modal>
  );
}
