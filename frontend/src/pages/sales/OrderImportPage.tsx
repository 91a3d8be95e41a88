import { useState } from 'react';
import { Link } from 'react-router';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { AlertTriangle, CheckCircle2, Download, FileSearch, RotateCcw, Upload } from 'lucide-react';
import { buildUrl } from '../../api/client';
import { errorMessage } from '../../api/errors';
import { Button } from '../../components/Button';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { CsvPicker, ImportSummary, UploadProgress } from '../../components/CsvUpload';
import { DataTable, type Column } from '../../components/DataTable';
import { DownloadLink } from '../../components/DownloadLink';
import { CheckboxField, FormError, SelectField } from '../../components/Field';
import { PageHeader } from '../../components/PageHeader';
import { Badge, EmptyState } from '../../components/States';
import { useToast } from '../../components/Toast';
import { formatMoney } from '../../lib/format';
import {
  createdNumbers,
  customerBadge,
  errorColumn,
  importLabel,
  importOrders,
  ORDER_TEMPLATE_URL,
  orderProblem,
  outcomeBadge,
  readyCount,
  reportLine,
  showsCustomer,
  SOURCE_OPTIONS,
  type OrderImportOrder,
  type OrderImportReport,
} from './orderImport';
import './sales.css';
import { queryKeys } from '../../api/queryKeys';

const PAGE_SIZE = 25;

const orderColumns: Column<OrderImportOrder>[] = [
  {
    key: 'order_id',
    header: 'Order ID',
    shrink: true,
    render: (o) => (
      <div className="cell-stack">
        <span className="mono">{o.order_id}</span>
        <span className="cell-sub">row {o.first_row}</span>
      </div>
    ),
  },
  {
    key: 'customer',
    header: 'Customer',
    render: (o) => {
      const b = customerBadge(o.customer);
      return (
        <div className="cell-stack cell-stack--start">
          <span className="cell-strong">{o.customer_name || o.customer_email}</span>
          {o.customer_name && <span className="cell-sub">{o.customer_email}</span>}
          {showsCustomer(o) && <Badge tone={b.tone}>{b.label}</Badge>}
        </div>
      );
    },
  },
  { key: 'line_count', header: 'Lines', align: 'right', shrink: true, render: (o) => <span className="num">{o.line_count}</span> },
  { key: 'units', header: 'Units', align: 'right', shrink: true, render: (o) => <span className="num">{o.units}</span> },
  { key: 'grand_total', header: 'Total', align: 'right', shrink: true, render: (o) => <span className="num">{o.grand_total === null ? '—' : formatMoney(o.grand_total)}</span> },
  {
    key: 'outcome',
    header: 'Outcome',
    shrink: true,
    render: (o) => {
      const b = outcomeBadge(o.outcome);
      return (
        <div className="cell-stack cell-stack--start">
          <Badge tone={b.tone}>{b.label}</Badge>
          {o.order_number && <span className="cell-sub mono">{o.order_number}</span>}
        </div>
      );
    },
  },
  {
    key: 'errors',
    header: 'Problems',
    render: (o) =>
      o.errors.length === 0 ? (
        <span className="muted">—</span>
      ) : (
        <ul className="order-import__problems">
          {o.errors.map((e, i) => (
            <li key={i}>{orderProblem(e)}</li>
          ))}
        </ul>
      ),
  },
];

/** The report of a preview or an import: counts, warnings, row errors and the orders. */
function ReportView({ report }: { report: OrderImportReport }) {
  const [page, setPage] = useState(1);
  const rows = report.orders.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
  return (
    <>
      <p className="muted small" data-testid="import-message">
        {reportLine(report)}
      </p>
      <ImportSummary
        counts={[
          { label: 'Rows', value: report.total_rows },
          { label: 'Orders found', value: report.orders_found },
          { label: report.applied ? 'Created' : 'Ready', value: report.created, tone: 'success' },
          { label: 'Skipped', value: report.skipped, tone: 'warning' },
          { label: report.applied ? 'Customers created' : 'Customers to create', value: report.customers_created },
        ]}
      />
      {report.warnings.length > 0 && (
        <div className="order-import__warnings" role="note" aria-label="Warnings">
          <AlertTriangle size={16} aria-hidden="true" />
          <ul>
            {report.warnings.map((w, i) => (
              <li key={i}>{w}</li>
            ))}
          </ul>
        </div>
      )}
      {report.errors.length > 0 && (
        <div className="order-import__errors">
          <table className="table table--compact" aria-label="Row errors">
            <thead>
              <tr>
                <th scope="col" className="align-right">
                  Row
                </th>
                <th scope="col">Column</th>
                <th scope="col">Problem</th>
              </tr>
            </thead>
            <tbody>
              {report.errors.map((e, i) => (
                <tr key={i}>
                  <td className="align-right num">{e.row}</td>
                  <td>{errorColumn(e)}</td>
                  <td>{e.reason}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <DataTable
        caption="Orders in the file"
        columns={orderColumns}
        rows={rows}
        rowKey={(o) => `${o.order_id}@${o.first_row}`}
        total={report.orders.length}
        page={page}
        pageSize={PAGE_SIZE}
        onPageChange={setPage}
        loading={false}
        empty={{ title: 'No orders in the file', description: 'The file has no rows with an Order ID.' }}
      />
      {report.truncated && <p className="muted small">Only the first {report.orders.length} orders are listed; the counts above cover the whole file.</p>}
    </>
  );
}

/** Import sales orders from a CSV (the Strata template or a shop's export): check the file, then import it. */
export function OrderImportPage() {
  const queryClient = useQueryClient();
  const toast = useToast();
  const [file, setFile] = useState<File | null>(null);
  const [createCustomers, setCreateCustomers] = useState(true);
  const [source, setSource] = useState('');
  const [progress, setProgress] = useState<number | null>(null);
  const [preview, setPreview] = useState<OrderImportReport | null>(null);
  const [result, setResult] = useState<OrderImportReport | null>(null);
  const [confirming, setConfirming] = useState(false);
  // A new picker after each import (it keeps its own preview).
  const [pickerKey, setPickerKey] = useState(0);

  const check = useMutation({
    mutationFn: (f: File) => importOrders(f, { createCustomers, source }, true, setProgress),
    onSuccess: (r) => {
      setProgress(null);
      setPreview(r);
    },
    onError: () => setProgress(null),
  });

  const apply = useMutation({
    mutationFn: (f: File) => importOrders(f, { createCustomers, source }, false, setProgress),
    onSuccess: async (r) => {
      setProgress(null);
      setConfirming(false);
      setResult(r);
      setPreview(null);
      if (r.created > 0) toast.success('Orders imported', r.message);
      else toast.error('No orders imported', r.message);
      await queryClient.invalidateQueries({ queryKey: queryKeys.sales.all });
      await queryClient.invalidateQueries({ queryKey: queryKeys.customers.all });
    },
    onError: () => {
      setProgress(null);
      setConfirming(false);
    },
  });

  const busy = check.isPending || apply.isPending;
  const changed = () => {
    // Options or the file changed: the last check no longer applies.
    setPreview(null);
    check.reset();
    apply.reset();
  };
  const restart = () => {
    setFile(null);
    setPreview(null);
    setResult(null);
    check.reset();
    apply.reset();
    setPickerKey((k) => k + 1);
  };

  const ready = preview ? readyCount(preview) : 0;
  const numbers = result ? createdNumbers(result) : [];

  return (
    <div className="page">
      <PageHeader
        title="Import Orders"
        description="Bring orders in from a spreadsheet or a shop export (Shopify, Squarespace, WooCommerce, Etsy, TikTok Shop). Rows sharing an Order ID become one pending order."
        actions={
          <DownloadLink url={buildUrl('', ORDER_TEMPLATE_URL)} filename="orders-template.csv" className="btn btn--secondary btn--md" aria-label="Download template">
            <Download size={16} aria-hidden="true" />
            <span className="btn__label">Download template</span>
          </DownloadLink>
        }
      />
      {result ? (
        <section className="card card--pad" aria-label="Import result">
          <div className="order-import__done">
            <CheckCircle2 size={22} aria-hidden="true" className={result.created > 0 ? 'order-import__ok' : 'muted'} />
            <h2 className="order-import__title">
              {result.created > 0 ? `${result.created} order${result.created === 1 ? '' : 's'} imported` : 'No orders imported'}
            </h2>
          </div>
          {numbers.length > 0 && (
            <p className="order-import__numbers" data-testid="created-orders">
              New pending orders:{' '}
              {numbers.map((n, i) => (
                <span key={n}>
                  {i > 0 && ', '}
                  <span className="mono">{n}</span>
                </span>
              ))}
              {result.created > numbers.length && ` and ${result.created - numbers.length} more`}.{' '}
              <Link className="link" to="/admin/orders?status=pending">
                See pending orders
              </Link>
            </p>
          )}
          <ReportView report={result} />
          <div>
            <Button variant="secondary" icon={<RotateCcw size={16} />} onClick={restart}>
              Import another file
            </Button>
          </div>
        </section>
      ) : (
        <>
          <section className="card card--pad" aria-label="Upload">
            <h2 className="order-import__title">1. Choose a file</h2>
            <p className="muted small">
              Required columns: Order ID, Customer Email, Product SKU, Quantity. Optional: Order Date, Order Status, Customer Name, Unit Price (else the
              item’s price), Shipping Cost, Tax Amount, shipping address. Shop exports are read as they come.
            </p>
            <CsvPicker
              key={pickerKey}
              file={file}
              onFile={(f) => {
                setFile(f);
                changed();
              }}
              disabled={busy}
              label="Orders CSV file"
            />
            <div className="order-import__options">
              <SelectField
                label="Source"
                hint="The shop the file comes from; detected from the header by default."
                options={SOURCE_OPTIONS}
                value={source}
                disabled={busy}
                onChange={(e) => {
                  setSource(e.target.value);
                  changed();
                }}
              />
              <CheckboxField
                label="Create missing customers"
                hint="Customers are matched by e-mail; without this, orders of unknown e-mails are imported without a customer."
                checked={createCustomers}
                disabled={busy}
                onChange={(e) => {
                  setCreateCustomers(e.target.checked);
                  changed();
                }}
              />
            </div>
            {check.isError && <FormError title="The file could not be checked" message={errorMessage(check.error)} />}
            {progress !== null && <UploadProgress fraction={progress} />}
            <div>
              <Button variant={preview ? 'secondary' : 'primary'} icon={<FileSearch size={16} />} disabled={!file || apply.isPending} loading={check.isPending} onClick={() => file && check.mutate(file)}>
                Check file
              </Button>
            </div>
          </section>
          <section className="card card--pad" aria-label="Preview">
            <h2 className="order-import__title">2. Check and import</h2>
            {!preview ? (
              <EmptyState
                compact
                icon={<FileSearch size={22} />}
                title="Nothing checked yet"
                description="Choose a CSV file and check it: you see what each order would become before anything is written."
              />
            ) : (
              <>
                <ReportView report={preview} />
                {apply.isError && <FormError title="The orders were not imported" message={errorMessage(apply.error)} />}
                <div className="order-import__actions">
                  <Button variant="primary" icon={<Upload size={16} />} disabled={ready === 0 || !file} loading={apply.isPending} onClick={() => setConfirming(true)}>
                    {importLabel(ready)}
                  </Button>
                  {ready === 0 && <span className="muted small">No order in this file can be imported. Fix the file and check it again.</span>}
                </div>
              </>
            )}
          </section>
        </>
      )}
      <ConfirmDialog
        open={confirming}
        title={importLabel(ready)}
        message={
          <>
            {ready} pending order{ready === 1 ? '' : 's'} will be created
            {preview && preview.customers_created > 0 ? `, with ${preview.customers_created} new customer${preview.customers_created === 1 ? '' : 's'}` : ''}.
            {preview && preview.skipped > 0 ? ` ${preview.skipped} order${preview.skipped === 1 ? ' is' : 's are'} skipped.` : ''}
          </>
        }
        confirmLabel="Import"
        destructive={false}
        busy={apply.isPending}
        onConfirm={() => file && apply.mutate(file)}
        onCancel={() => setConfirming(false)}
      />
    </div>
  );
}
