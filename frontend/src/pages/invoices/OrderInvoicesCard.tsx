import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { FilePlus2 } from 'lucide-react';
import { queryKeys } from '../../api/queryKeys';
import { Button } from '../../components/Button';
import { ErrorState, Skeleton } from '../../components/States';
import { formatMoney } from '../../lib/format';
import { formatDate } from '../accounting/accountingFormat';
import { CreateInvoiceDialog } from './InvoiceDialogs';
import { InvoiceStatusBadge } from './InvoiceStatusBadge';
import { BILLABLE_ORDER_STATUSES, invoicesApi, leftToInvoice } from './invoicesApi';
import './invoices.css';

/** An order's invoices (most an order has: a deposit, the rest, a re-invoice after a void). */
const ORDER_INVOICES_LIMIT = 100;

interface OrderRef {
  id: number;
  order_number: string;
  status: string;
  grand_total: string;
}

/**
 * The invoices of an order, on its page (admins): each linked to its page, with what is still
 * owed, and "Create invoice" while the order is billable (confirmed or later) and not billed
 * in full (the whole rest or a deposit).
 */
export function OrderInvoicesCard({ order }: { order: OrderRef }) {
  const [creating, setCreating] = useState(false);
  const request = { sales_order_id: order.id };
  const invoices = useQuery({
    queryKey: queryKeys.invoices.list(request),
    queryFn: ({ signal }) => invoicesApi.list({ ...request, status: 'all', sort_by: 'created_at', sort_order: 'asc', limit: ORDER_INVOICES_LIMIT }, signal),
  });
  const left = invoices.data ? leftToInvoice(order.grand_total, invoices.data) : null;
  const billable = (BILLABLE_ORDER_STATUSES as readonly string[]).includes(order.status);
  const canCreate = billable && invoices.data !== undefined && (left ?? 0) > 0;
  return (
    <section className="card card--pad" aria-labelledby="so-invoices">
      <div className="wo-actions" style={{ justifyContent: 'space-between' }}>
        <h2 id="so-invoices" className="section-title">
          Invoices
        </h2>
        {canCreate && (
          <Button size="sm" variant="secondary" icon={<FilePlus2 size={14} />} onClick={() => setCreating(true)}>
            Create invoice
          </Button>
        )}
      </div>
      {invoices.error ? (
        <ErrorState compact error={invoices.error} onRetry={() => void invoices.refetch()} />
      ) : invoices.isPending ? (
        <Skeleton width="60%" />
      ) : invoices.data.length === 0 ? (
        <p className="muted">{billable ? 'Not invoiced yet. Shipping writes the invoice, or create one now (the whole order or a deposit).' : 'Invoices can be written once the order is confirmed.'}</p>
      ) : (
        <>
          <div className="so-scroll">
            <table className="table table--compact" aria-label="Invoices of the order">
              <thead>
                <tr>
                  <th scope="col">Invoice</th>
                  <th scope="col">Status</th>
                  <th scope="col">Due</th>
                  <th scope="col" className="align-right">
                    Total
                  </th>
                  <th scope="col" className="align-right">
                    Amount due
                  </th>
                </tr>
              </thead>
              <tbody>
                {invoices.data.map((i) => (
                  <tr key={i.id}>
                    <td>
                      <Link to={`/admin/invoices/${i.id}`} className="mono">
                        {i.invoice_number}
                      </Link>
                    </td>
                    <td>
                      <InvoiceStatusBadge invoice={i} />
                    </td>
                    <td className={i.is_overdue ? 'text-danger' : undefined}>{formatDate(i.due_date)}</td>
                    <td className="align-right num">{formatMoney(i.total)}</td>
                    <td className="align-right num">{formatMoney(i.amount_due)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {left !== null && left > 0 && (
            <p className="cell-sub" data-testid="left-to-invoice">
              {formatMoney(left)} of the order is not invoiced yet.
            </p>
          )}
        </>
      )}
      <CreateInvoiceDialog order={order} left={left} open={creating} onClose={() => setCreating(false)} />
    </section>
  );
}
