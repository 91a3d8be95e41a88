import { lazy, Suspense } from 'react';
import { Link } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { AlertTriangle, CheckCircle2, HandCoins } from 'lucide-react';
import { accountingApi } from '../../api/endpoints';
import type { AgingRow } from '../../api/model';
import { queryKeys } from '../../api/queryKeys';
import { Badge, EmptyState, ErrorState, Skeleton } from '../../components/States';
import { formatMoney, toNumber } from '../../lib/format';
import { formatDate } from './accountingFormat';
import { AGING_BUCKETS, agingBar } from './agingBuckets';

const AgingChart = lazy(() => import('./AgingChart'));

/** A bucket's amount: blank when nothing is owed in it, red when it is past 30 days. */
function Amount({ row, bucket }: { row: AgingRow; bucket: (typeof AGING_BUCKETS)[number]['key'] }) {
  const n = toNumber(row[bucket]) ?? 0;
  if (n === 0) return <span className="muted">—</span>;
  const late = bucket === 'days_31_60' || bucket === 'days_61_90' || bucket === 'over_90';
  return <span className={late ? 'text-danger' : undefined}>{formatMoney(row[bucket])}</span>;
}

/**
 * Accounts receivable ageing (`/admin/accounting/ar-aging`): what customers owe by how late
 * it is, as a stacked bar of the totals and a table per customer (each linked to its open
 * invoices), with a warning when 1100 Accounts Receivable does not equal the open invoices.
 */
export function ReceivablesAgingSection() {
  const aging = useQuery({ queryKey: queryKeys.accounting.receivablesAging(), queryFn: ({ signal }) => accountingApi.receivablesAging(signal) });
  if (aging.isPending) {
    return (
      <div className="card card--pad" aria-busy="true">
        {Array.from({ length: 6 }, (_, i) => (
          <Skeleton key={i} height={24} />
        ))}
      </div>
    );
  }
  if (aging.error) {
    return (
      <div className="card">
        <ErrorState error={aging.error} onRetry={() => void aging.refetch()} />
      </div>
    );
  }
  const d = aging.data;
  const owed = toNumber(d.totals.total) ?? 0;
  const chart = [agingBar('All', d.totals)];
  return (
    <section className="card" aria-labelledby="ar-title">
      <header className="card__header card__row">
        <div>
          <h2 id="ar-title" className="card__title">
            Accounts receivable ageing
          </h2>
          <p className="muted">What customers owe on open invoices by how far past due it is, as of {formatDate(d.as_of)}.</p>
        </div>
        {d.ledger_agrees ? (
          <Badge tone="success">Agrees with 1100</Badge>
        ) : (
          <Badge tone="warning">
            <AlertTriangle size={12} aria-hidden="true" /> Ledger differs
          </Badge>
        )}
      </header>
      <div className="card__body">
        {d.ledger_agrees ? (
          <div className="balance-flag balance-flag--ok" role="status" data-testid="ledger-check">
            <CheckCircle2 size={18} aria-hidden="true" />
            <span>
              <strong>Reconciled</strong> · 1100 Accounts Receivable ({formatMoney(d.ledger_balance)}) equals the open invoices.
            </span>
          </div>
        ) : (
          <div className="balance-flag balance-flag--bad" role="alert" data-testid="ledger-check">
            <AlertTriangle size={18} aria-hidden="true" />
            <span>
              <strong>1100 Accounts Receivable is {formatMoney(d.ledger_balance)}</strong>, the open invoices total {formatMoney(d.totals.total)}: a posting
              outside invoices and payments (a manual entry, a payment not applied to an invoice) explains the difference.
            </span>
          </div>
        )}
      </div>
      {d.customers.length === 0 || owed === 0 ? (
        <EmptyState compact icon={<HandCoins size={22} />} title="Nothing is owed" description="Open invoices appear here by how late they are." />
      ) : (
        <>
          <div
            className="chart"
            role="img"
            aria-label={`Stacked bar chart of what is owed: ${AGING_BUCKETS.map((b) => `${b.label} ${formatMoney(d.totals[b.key])}`).join(', ')}`}
          >
            <Suspense fallback={<Skeleton height={140} />}>
              <AgingChart data={chart} />
            </Suspense>
          </div>
          <div className="datatable__scroll">
            <table className="table" aria-label="Receivables by customer">
              <thead>
                <tr>
                  <th scope="col">Customer</th>
                  {AGING_BUCKETS.map((b) => (
                    <th key={b.key} scope="col" className={`align-right shrink${b.key === 'days_61_90' ? ' hide-tablet' : ''}`}>
                      {b.label}
                    </th>
                  ))}
                  <th scope="col" className="align-right shrink">
                    Total
                  </th>
                </tr>
              </thead>
              <tbody>
                {d.customers.map((c) => (
                  <tr key={c.customer_id ?? `name-${c.customer_name}`}>
                    <td>
                      <div className="cell-stack">
                        {c.customer_id !== null ? (
                          <Link to={`/admin/invoices?status=open&customer=${c.customer_id}`} className="cell-strong">
                            {c.customer_name}
                          </Link>
                        ) : (
                          <span className="cell-strong">{c.customer_name}</span>
                        )}
                        <span className="cell-sub">
                          {c.invoice_count} invoice{c.invoice_count === 1 ? '' : 's'}
                          {c.oldest_due_date ? ` · oldest due ${formatDate(c.oldest_due_date)}` : ''}
                        </span>
                      </div>
                    </td>
                    {AGING_BUCKETS.map((b) => (
                      <td key={b.key} className={`align-right shrink num${b.key === 'days_61_90' ? ' hide-tablet' : ''}`}>
                        <Amount row={c} bucket={b.key} />
                      </td>
                    ))}
                    <td className="align-right shrink num cell-strong">{formatMoney(c.total)}</td>
                  </tr>
                ))}
              </tbody>
              <tfoot>
                <tr className="totals" data-testid="aging-totals">
                  <th scope="row">Total</th>
                  {AGING_BUCKETS.map((b) => (
                    <td key={b.key} className={`align-right num${b.key === 'days_61_90' ? ' hide-tablet' : ''}`}>
                      {formatMoney(d.totals[b.key])}
                    </td>
                  ))}
                  <td className="align-right num">{formatMoney(d.totals.total)}</td>
                </tr>
              </tfoot>
            </table>
          </div>
        </>
      )}
    </section>
  );
}
