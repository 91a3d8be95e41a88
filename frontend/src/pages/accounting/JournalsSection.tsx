import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Download } from 'lucide-react';
import { accountingApi } from '../../api/endpoints';
import type { PaymentsJournal, SalesJournal, TaxSummary } from '../../api/model';
import { DownloadLink } from '../../components/DownloadLink';
import { Badge, EmptyState, ErrorState, Skeleton } from '../../components/States';
import { formatMoney, humanize } from '../../lib/format';
import { formatDate, today } from './accountingFormat';
import { queryKeys } from '../../api/queryKeys';

/** The largest page the journals answer: one window's rows at once for the usual month. */
const PAGE = 500;

/** 29 days before `end` (YYYY-MM-DD): the server's default window of the last 30 days. */
export function defaultStart(end: string): string {
  const [y, m, d] = end.split('-').map(Number);
  const date = new Date(Date.UTC(y ?? 1970, (m ?? 1) - 1, d ?? 1));
  date.setUTCDate(date.getUTCDate() - 29);
  return date.toISOString().slice(0, 10);
}

function Loading() {
  return (
    <div aria-busy="true">
      {Array.from({ length: 4 }, (_, i) => (
        <Skeleton key={i} height={24} />
      ))}
    </div>
  );
}

function CsvLink({ report, window, label }: { report: 'sales-journal' | 'payments-journal' | 'tax-summary'; window: { start_date: string; end_date: string }; label: string }) {
  return (
    <DownloadLink url={accountingApi.journalCsvUrl(report, window)} filename={`${report}-${window.start_date}-${window.end_date}.csv`} className="btn btn--secondary btn--sm" aria-label={label}>
      <Download size={14} aria-hidden="true" /> CSV
    </DownloadLink>
  );
}

/** The sales journal, payments journal and tax summary of one date range, with totals. */
export function JournalsSection() {
  const [end, setEnd] = useState(today());
  const [start, setStart] = useState(defaultStart(today()));
  const invalid = start > end;
  const window = { start_date: start, end_date: end };
  const enabled = !invalid && start !== '' && end !== '';

  const sales = useQuery({
    queryKey: queryKeys.accounting.salesJournal(start, end),
    queryFn: ({ signal }) => accountingApi.salesJournal({ ...window, limit: PAGE }, signal),
    enabled,
  });
  const payments = useQuery({
    queryKey: queryKeys.accounting.paymentsJournal(start, end),
    queryFn: ({ signal }) => accountingApi.paymentsJournal({ ...window, limit: PAGE }, signal),
    enabled,
  });
  const tax = useQuery({
    queryKey: queryKeys.accounting.taxSummary(start, end),
    queryFn: ({ signal }) => accountingApi.taxSummary(window, signal),
    enabled,
  });

  return (
    <div className="stack">
      <section className="card card--pad" aria-label="Journal dates">
        <div className="toolbar">
          <label className="inline-field">
            <span>From</span>
            <input type="date" className="input input--sm" aria-label="From date" value={start} max={end} onChange={(e) => setStart(e.target.value)} />
          </label>
          <label className="inline-field">
            <span>To</span>
            <input type="date" className="input input--sm" aria-label="To date" value={end} onChange={(e) => setEnd(e.target.value)} />
          </label>
          {invalid && (
            <span role="alert" className="text-danger">
              The start date must be on or before the end date.
            </span>
          )}
        </div>
      </section>

      <section className="card" aria-labelledby="sales-journal-title">
        <header className="card__header card__row">
          <div>
            <h2 id="sales-journal-title" className="card__title">
              Sales journal
            </h2>
            <p className="muted">Every order invoiced when it shipped, from the ledger (1100 / 4000, 2100, 4200).</p>
          </div>
          {enabled && <CsvLink report="sales-journal" window={window} label="Download sales journal as CSV" />}
        </header>
        {!enabled ? null : sales.isPending ? (
          <Loading />
        ) : sales.error ? (
          <ErrorState error={sales.error} onRetry={() => void sales.refetch()} compact />
        ) : (
          <SalesTable journal={sales.data} />
        )}
      </section>

      <section className="card" aria-labelledby="payments-journal-title">
        <header className="card__header card__row">
          <div>
            <h2 id="payments-journal-title" className="card__title">
              Payments journal
            </h2>
            <p className="muted">Payments, refunds and voids booked to cash (1000), signed.</p>
          </div>
          {enabled && <CsvLink report="payments-journal" window={window} label="Download payments journal as CSV" />}
        </header>
        {!enabled ? null : payments.isPending ? (
          <Loading />
        ) : payments.error ? (
          <ErrorState error={payments.error} onRetry={() => void payments.refetch()} compact />
        ) : (
          <PaymentsTable journal={payments.data} />
        )}
      </section>

      <section className="card" aria-labelledby="tax-summary-title">
        <header className="card__header card__row">
          <div>
            <h2 id="tax-summary-title" className="card__title">
              Tax summary
            </h2>
            <p className="muted">Sales and sales tax collected (2100) by month.</p>
          </div>
          {enabled && <CsvLink report="tax-summary" window={window} label="Download tax summary as CSV" />}
        </header>
        {!enabled ? null : tax.isPending ? (
          <Loading />
        ) : tax.error ? (
          <ErrorState error={tax.error} onRetry={() => void tax.refetch()} compact />
        ) : (
          <TaxTable summary={tax.data} />
        )}
      </section>
    </div>
  );
}

function SalesTable({ journal }: { journal: SalesJournal }) {
  if (journal.rows.length === 0) return <EmptyState title="No invoices" description="No order shipped in these dates." />;
  const t = journal.totals;
  return (
    <div className="table-wrap">
      <table className="table" aria-label="Sales journal">
        <thead>
          <tr>
            <th>Date</th>
            <th>Order</th>
            <th>Customer</th>
            <th className="num">Subtotal</th>
            <th className="num">Tax</th>
            <th className="num">Shipping</th>
            <th className="num">Total</th>
          </tr>
        </thead>
        <tbody>
          {journal.rows.map((r) => (
            <tr key={r.journal_entry_id}>
              <td>{formatDate(r.date)}</td>
              <td>{r.order_number ?? r.entry_number}</td>
              <td>{r.customer_name ?? '—'}</td>
              <td className="num">{formatMoney(r.subtotal)}</td>
              <td className="num">{formatMoney(r.tax)}</td>
              <td className="num">{formatMoney(r.shipping)}</td>
              <td className="num">{formatMoney(r.grand_total)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th colSpan={3}>
              Totals ({t.invoice_count} {t.invoice_count === 1 ? 'invoice' : 'invoices'})
            </th>
            <td className="num">{formatMoney(t.subtotal)}</td>
            <td className="num">{formatMoney(t.tax)}</td>
            <td className="num">{formatMoney(t.shipping)}</td>
            <td className="num" data-testid="sales-total">
              {formatMoney(t.grand_total)}
            </td>
          </tr>
        </tfoot>
      </table>
      {journal.total > journal.rows.length && (
        <p className="muted">
          Showing the first {journal.rows.length} of {journal.total}; the CSV has every row.
        </p>
      )}
    </div>
  );
}

function PaymentsTable({ journal }: { journal: PaymentsJournal }) {
  if (journal.rows.length === 0) return <EmptyState title="No payments" description="No payment or refund was booked in these dates." />;
  const t = journal.totals;
  return (
    <div className="table-wrap">
      <table className="table" aria-label="Payments journal">
        <thead>
          <tr>
            <th>Date</th>
            <th>Payment</th>
            <th>Order</th>
            <th>Kind</th>
            <th>Method</th>
            <th className="num">Amount</th>
          </tr>
        </thead>
        <tbody>
          {journal.rows.map((r) => (
            <tr key={r.journal_entry_id}>
              <td>{formatDate(r.date)}</td>
              <td>{r.payment_number}</td>
              <td>{r.order_number}</td>
              <td>
                <Badge tone={r.kind === 'payment' ? 'success' : 'warning'}>{humanize(r.kind)}</Badge>
              </td>
              <td>{humanize(r.payment_method)}</td>
              <td className="num">{formatMoney(r.amount)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          {journal.by_method.map((m) => (
            <tr key={m.payment_method}>
              <th colSpan={5}>{humanize(m.payment_method)}</th>
              <td className="num">{formatMoney(m.amount)}</td>
            </tr>
          ))}
          <tr>
            <th colSpan={5}>Net cash (payments {formatMoney(t.payments)}, refunds {formatMoney(t.refunds)})</th>
            <td className="num" data-testid="payments-net">
              {formatMoney(t.net)}
            </td>
          </tr>
        </tfoot>
      </table>
    </div>
  );
}

function TaxTable({ summary }: { summary: TaxSummary }) {
  const t = summary.totals;
  return (
    <div className="table-wrap">
      <table className="table" aria-label="Tax summary">
        <thead>
          <tr>
            <th>Month</th>
            <th className="num">Invoices</th>
            <th className="num">Taxable sales</th>
            <th className="num">Non-taxable sales</th>
            <th className="num">Tax collected</th>
          </tr>
        </thead>
        <tbody>
          {summary.periods.map((p) => (
            <tr key={p.period}>
              <td>
                {p.period} <span className="muted">({formatDate(p.start_date)} – {formatDate(p.end_date)})</span>
              </td>
              <td className="num">{p.invoice_count}</td>
              <td className="num">{formatMoney(p.taxable_sales)}</td>
              <td className="num">{formatMoney(p.non_taxable_sales)}</td>
              <td className="num">{formatMoney(p.tax_collected)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th>Totals</th>
            <td className="num">{t.invoice_count}</td>
            <td className="num">{formatMoney(t.taxable_sales)}</td>
            <td className="num">{formatMoney(t.non_taxable_sales)}</td>
            <td className="num" data-testid="tax-total">
              {formatMoney(t.tax_collected)}
            </td>
          </tr>
        </tfoot>
      </table>
    </div>
  );
}
