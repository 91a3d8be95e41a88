import { useState, type ReactNode } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { ArrowLeft, Ban, Banknote, FileDown, Send, SendHorizontal } from 'lucide-react';
import { errorMessage } from '../../api/errors';
import { queryKeys } from '../../api/queryKeys';
import { Button } from '../../components/Button';
import { DownloadLink } from '../../components/DownloadLink';
import { FormError } from '../../components/Field';
import { PageHeader } from '../../components/PageHeader';
import { Badge, ErrorState, Skeleton } from '../../components/States';
import { useToast } from '../../components/Toast';
import { formatDateTime, formatMoney, formatQty, toNumber } from '../../lib/format';
import { formatDate } from '../accounting/accountingFormat';
import { InvoicePaymentDialog, SendInvoiceDialog, VoidInvoiceDialog } from './InvoiceDialogs';
import { useInvoiceInvalidate } from './invoiceHooks';
import { InvoiceStatusBadge } from './InvoiceStatusBadge';
import { INVOICE_METHOD_LABEL, TERMS_LABEL, canRecordPayment, canSend, canVoid, invoicesApi, type Invoice } from './invoicesApi';
import './invoices.css';

type Dialog = 'send' | 'payment' | 'void' | null;

function Stat({ label, tone, testId, children }: { label: string; tone?: 'danger' | 'success'; testId?: string; children: ReactNode }) {
  return (
    <div className={`stat${tone ? ` stat--${tone}` : ''}`} data-testid={testId}>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

function billTo(i: Invoice): string {
  return [i.customer_name, i.customer_company, i.bill_to_line1, [i.bill_to_city, i.bill_to_state, i.bill_to_zip].filter(Boolean).join(' ')]
    .filter(Boolean)
    .join('\n');
}

/** Tax rate as a percent ("8.25%"), from the fraction the server keeps. */
function percent(rate: string): string {
  const n = toNumber(rate) ?? 0;
  return `${Number((n * 100).toFixed(3))}%`;
}

/** What follows "Tax": the rate's name and percent ("(Texas, 8.25%)"), either, or nothing. */
function taxLabel(i: Pick<Invoice, 'tax_rate' | 'tax_rate_name'>): string {
  const parts = [i.tax_rate_name, toNumber(i.tax_rate) ? percent(i.tax_rate) : null].filter(Boolean);
  return parts.length ? ` (${parts.join(', ')})` : '';
}

export function InvoiceDetailPage() {
  const { invoiceId } = useParams();
  const id = Number(invoiceId);
  const valid = Number.isInteger(id) && id > 0;
  const toast = useToast();
  const invalidate = useInvoiceInvalidate();
  const [dialog, setDialog] = useState<Dialog>(null);
  const [error, setError] = useState<string | null>(null);
  const detail = useQuery({ queryKey: queryKeys.invoices.detail(id), queryFn: ({ signal }) => invoicesApi.get(id, signal), enabled: valid });
  const markSent = useMutation({
    mutationFn: () => invoicesApi.markSent(id),
    onSuccess: async (i) => {
      setError(null);
      toast.success('Marked sent', `${i.invoice_number} is sent; no e-mail was sent.`);
      await invalidate();
    },
    onError: (err) => setError(errorMessage(err)),
  });

  const back = (
    <Link to="/admin/invoices" className="wo-back">
      <ArrowLeft size={14} /> Invoices
    </Link>
  );
  const invoice = detail.data;
  if (!invoice) {
    return (
      <div className="page">
        <PageHeader title={`Invoice ${invoiceId ?? ''}`.trim()} eyebrow={back} />
        {detail.error || !valid ? (
          <div className="card">
            <ErrorState error={detail.error ?? new Error('That is not an invoice number.')} onRetry={() => void detail.refetch()} />
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

  const voided = invoice.status === 'voided';
  const payable = canRecordPayment(invoice);
  const discount = toNumber(invoice.discount_amount) ?? 0;
  const address = billTo(invoice);
  const paidWith = [
    invoice.payment_method && INVOICE_METHOD_LABEL[invoice.payment_method],
    invoice.payment_reference && `ref. ${invoice.payment_reference}`,
    invoice.paid_at && `paid in full ${formatDateTime(invoice.paid_at)}`,
  ]
    .filter(Boolean)
    .join(' · ');
  return (
    <div className="page">
      <PageHeader
        eyebrow={back}
        title={invoice.invoice_number}
        description={[invoice.customer_name ?? 'No customer', invoice.customer_company].filter(Boolean).join(' · ')}
        actions={
          <div className="wo-actions">
            {payable && (
              <Button variant="primary" icon={<Banknote size={16} />} onClick={() => setDialog('payment')}>
                Record payment
              </Button>
            )}
            {canSend(invoice) && (
              <Button icon={<Send size={16} />} onClick={() => setDialog('send')}>
                Send
              </Button>
            )}
            {invoice.status === 'draft' && (
              <Button icon={<SendHorizontal size={16} />} loading={markSent.isPending} onClick={() => markSent.mutate()}>
                Mark sent
              </Button>
            )}
            <DownloadLink
              url={invoicesApi.pdfUrl(invoice.id)}
              filename={`${invoice.invoice_number}.pdf`}
              className="btn btn--secondary btn--md"
              aria-label={`PDF of ${invoice.invoice_number}`}
            >
              <FileDown size={16} aria-hidden />
              <span className="btn__label">Download PDF</span>
            </DownloadLink>
            {canVoid(invoice) && (
              <Button variant="ghost" icon={<Ban size={16} />} onClick={() => setDialog('void')}>
                Void
              </Button>
            )}
          </div>
        }
      />
      <div className="wo-badges">
        <InvoiceStatusBadge invoice={invoice} />
        <Badge>{TERMS_LABEL[invoice.payment_terms] ?? invoice.payment_terms}</Badge>
        <span className="cell-sub">
          Invoiced {formatDate(invoice.invoice_date)} · due {formatDate(invoice.due_date)} · order{' '}
          <Link to={`/admin/orders/${invoice.sales_order_id}`} className="mono">
            {invoice.order_number ?? `#${invoice.sales_order_id}`}
          </Link>
        </span>
      </div>
      <FormError message={error} />
      {voided && (
        <div className="inv-void" role="status" data-testid="void-notice">
          <Ban size={16} aria-hidden="true" />
          <span>
            <strong>Voided {formatDateTime(invoice.voided_at)}</strong>
            {invoice.void_reason ? ` · ${invoice.void_reason}` : ''}. Nothing is owed on it; its receivable entry was reversed.
          </span>
        </div>
      )}
      <dl className="stat-row" aria-label="Amounts">
        <Stat label="Total">{formatMoney(invoice.total)}</Stat>
        <Stat label="Paid" tone={invoice.status === 'paid' ? 'success' : undefined}>
          {formatMoney(invoice.amount_paid)}
        </Stat>
        <Stat label="Amount due" tone={invoice.is_overdue ? 'danger' : undefined} testId="amount-due">
          {formatMoney(invoice.amount_due)}
        </Stat>
        <Stat label="Due" tone={invoice.is_overdue ? 'danger' : undefined}>
          {formatDate(invoice.due_date)}
          {invoice.days_overdue > 0 && <span className="stat__sub">{invoice.days_overdue} days overdue</span>}
        </Stat>
      </dl>
      <section className="card card--pad" aria-labelledby="inv-details">
        <h2 id="inv-details" className="section-title">
          Details
        </h2>
        <dl className="inv-parties">
          <div>
            <dt>Bill to</dt>
            <dd data-testid="bill-to">{address || '—'}</dd>
            {invoice.customer_email && <dd className="cell-sub">{invoice.customer_email}</dd>}
          </div>
          <div>
            <dt>Terms</dt>
            <dd>{TERMS_LABEL[invoice.payment_terms] ?? invoice.payment_terms}</dd>
            <dd className="cell-sub">
              Invoiced {formatDate(invoice.invoice_date)}, due {formatDate(invoice.due_date)}
            </dd>
          </div>
          <div>
            <dt>Sent</dt>
            <dd>{invoice.sent_at ? formatDateTime(invoice.sent_at) : 'Not sent yet'}</dd>
            {invoice.sent_to && <dd className="cell-sub">to {invoice.sent_to}</dd>}
          </div>
          <div>
            <dt>Payment</dt>
            <dd data-testid="payment-details">{paidWith || (toNumber(invoice.amount_paid) ? formatMoney(invoice.amount_paid) : 'Nothing paid yet')}</dd>
          </div>
        </dl>
      </section>
      <section className="card card--pad" aria-labelledby="inv-lines">
        <h2 id="inv-lines" className="section-title">
          Lines
        </h2>
        <div className="so-scroll">
          <table className="table table--compact" aria-label="Invoice lines">
            <thead>
              <tr>
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
              </tr>
            </thead>
            <tbody>
              {invoice.lines.length === 0 ? (
                <tr>
                  <td colSpan={4} className="muted">
                    No lines.
                  </td>
                </tr>
              ) : (
                invoice.lines.map((l) => (
                  <tr key={l.id}>
                    <td>
                      <div className="cell-stack">
                        <span className="cell-strong">{l.description}</span>
                        {l.sku && <span className="cell-sub mono">{l.sku}</span>}
                      </div>
                    </td>
                    <td className="align-right num">{formatQty(l.quantity)}</td>
                    <td className="align-right num">
                      {formatMoney(l.unit_price)}
                      {l.discount_percent && toNumber(l.discount_percent) ? <span className="cell-sub"> (−{Number(l.discount_percent)}%)</span> : null}
                    </td>
                    <td className="align-right num">{formatMoney(l.line_total)}</td>
                  </tr>
                ))
              )}
            </tbody>
            <tfoot className="inv-totals" aria-label="Totals">
              <tr>
                <th scope="row" colSpan={3}>
                  Subtotal
                </th>
                <td className="align-right num" data-testid="subtotal">
                  {formatMoney(invoice.subtotal)}
                </td>
              </tr>
              {discount !== 0 && (
                <tr>
                  <th scope="row" colSpan={3}>
                    Discount
                  </th>
                  <td className="align-right num" data-testid="discount">
                    −{formatMoney(invoice.discount_amount)}
                  </td>
                </tr>
              )}
              <tr>
                <th scope="row" colSpan={3}>
                  Tax{taxLabel(invoice)}
                </th>
                <td className="align-right num" data-testid="tax">
                  {formatMoney(invoice.tax_amount)}
                </td>
              </tr>
              <tr>
                <th scope="row" colSpan={3}>
                  Shipping
                </th>
                <td className="align-right num" data-testid="shipping">
                  {formatMoney(invoice.shipping_amount)}
                </td>
              </tr>
              <tr className="inv-totals__grand">
                <th scope="row" colSpan={3}>
                  Total
                </th>
                <td className="align-right num" data-testid="total">
                  {formatMoney(invoice.total)}
                </td>
              </tr>
              <tr>
                <th scope="row" colSpan={3}>
                  Paid
                </th>
                <td className="align-right num" data-testid="paid">
                  {formatMoney(invoice.amount_paid)}
                </td>
              </tr>
              <tr className="inv-totals__due">
                <th scope="row" colSpan={3}>
                  Amount due
                </th>
                <td className={`align-right num${invoice.is_overdue ? ' text-danger' : ''}`} data-testid="due">
                  {formatMoney(invoice.amount_due)}
                </td>
              </tr>
            </tfoot>
          </table>
        </div>
      </section>
      <InvoicePaymentDialog invoice={invoice} open={dialog === 'payment'} onClose={() => setDialog(null)} />
      <SendInvoiceDialog invoice={invoice} open={dialog === 'send'} onClose={() => setDialog(null)} />
      <VoidInvoiceDialog invoice={invoice} open={dialog === 'void'} onClose={() => setDialog(null)} />
    </div>
  );
}
