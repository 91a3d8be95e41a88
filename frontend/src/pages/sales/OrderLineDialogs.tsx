import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { AlertTriangle } from 'lucide-react';
import { queryKeys } from '../../api/queryKeys';
import { SelectField, TextAreaField, TextField } from '../../components/Field';
import { FormDialog, useZodForm } from '../../components/FormDialog';
import { Badge, ErrorState, Skeleton } from '../../components/States';
import { useToast } from '../../components/Toast';
import { formatMoney, formatQty, humanize } from '../../lib/format';
import { applyServerErrors } from '../../lib/forms';
import { ORDER_TONE as WO_TONE } from '../production/productionApi';
import {
  EMPTY_LINE_ADD,
  closeShortSchema,
  lineAddBody,
  lineAddSchema,
  lineEditBody,
  lineEditErrorsOnForm,
  lineEditSchema,
  lineEditValues,
  salesApi,
  type CloseShortForm,
  type LineAddForm,
  type LineEditForm,
  type SalesOrder,
  type SalesOrderLine,
} from './salesApi';
import { useItemOptions, useSalesInvalidate } from './salesHooks';

const LINE_EDIT_FIELDS = ['quantity', 'unit_price', 'reason'] as const;
const LINE_ADD_FIELDS = ['product_id', 'quantity', 'unit_price', 'reason'] as const;

/** An admin adds a line to an entered order, saying why; priced like the order's lines unless a price is given. */
export function LineAddDialog({ order, open, onClose }: { order: Pick<SalesOrder, 'id' | 'order_number'>; open: boolean; onClose: () => void }) {
  const toast = useToast();
  const invalidate = useSalesInvalidate();
  const [idemKey, setIdemKey] = useState(salesApi.newKey);
  const { items, options } = useItemOptions(open);
  const form = useZodForm(lineAddSchema, { defaultValues: EMPTY_LINE_ADD });
  const {
    register,
    formState: { errors },
  } = form;
  const title = `Add a line · ${order.order_number}`;
  return (
    <FormDialog
      form={form}
      open={open}
      onClose={onClose}
      onReset={() => setIdemKey(salesApi.newKey())}
      title={title}
      description="Priced from the item's selling price and the customer's price level unless you give a price. A confirmed order reserves stock for it; the change goes in the order's history."
      id="so-line-add-form"
      label={title}
      submitLabel="Add line"
      errorTitle="The line was not added"
      submit={(v: LineAddForm) => salesApi.addLine(order.id, lineAddBody(v), idemKey)}
      onSuccess={async (o) => {
        toast.success('Line added', `${o.order_number} now totals ${formatMoney(o.grand_total)}.`);
        await invalidate();
      }}
      fields={LINE_ADD_FIELDS}
    >
      <SelectField
        label="Item"
        required
        placeholder={items.isPending ? 'Loading items…' : 'Choose an item'}
        options={options}
        error={errors.product_id?.message}
        {...register('product_id')}
      />
      <div className="form__grid">
        <TextField label="Quantity" required inputMode="numeric" error={errors.quantity?.message} {...register('quantity')} />
        <TextField label="Unit price" inputMode="decimal" placeholder="The item's price" error={errors.unit_price?.message} {...register('unit_price')} />
      </div>
      <TextAreaField label="Reason" required error={errors.reason?.message} {...register('reason')} />
    </FormDialog>
  );
}

interface LineEditProps {
  order: Pick<SalesOrder, 'id' | 'order_number'>;
  line: SalesOrderLine | null;
  onClose: () => void;
}

/** An admin changes a line's quantity or unit price, saying why; mounted per opened line. */
export function LineEditDialog({ order, line, onClose }: LineEditProps) {
  return line ? <LineEditForm key={line.id} order={order} line={line} onClose={onClose} /> : null;
}

function LineEditForm({ order, line, onClose }: LineEditProps & { line: SalesOrderLine }) {
  const toast = useToast();
  const invalidate = useSalesInvalidate();
  const [idemKey] = useState(salesApi.newKey);
  const form = useZodForm(lineEditSchema, { defaultValues: lineEditValues(line) });
  const {
    register,
    setError,
    formState: { errors },
  } = form;
  const title = `Edit line ${line.line_number} · ${order.order_number}`;
  return (
    <FormDialog
      form={form}
      open
      onClose={onClose}
      title={title}
      description={`${[line.product_sku, line.product_name].filter(Boolean).join(' · ') || `#${line.product_id}`}. Reservations, totals and payment status follow; the change goes in the order's history.`}
      id="so-line-form"
      label={title}
      submitLabel="Save line"
      errorTitle="The line was not changed"
      check={(v) => (lineEditBody(line, v) ? null : 'Change the quantity or the unit price.')}
      submit={(v: LineEditForm) => salesApi.editLines(order.id, lineEditBody(line, v)!, idemKey)}
      onSuccess={async (o) => {
        toast.success('Line changed', `Line ${line.line_number} of ${o.order_number} is saved; the total is ${formatMoney(o.grand_total)}.`);
        await invalidate();
      }}
      serverError={(err) => applyServerErrors(lineEditErrorsOnForm(err), setError, LINE_EDIT_FIELDS)}
      fields={LINE_EDIT_FIELDS}
    >
      <div className="form__grid">
        <TextField
          label="Quantity"
          required
          inputMode="numeric"
          hint={`${formatQty(line.quantity_shipped)} shipped`}
          error={errors.quantity?.message}
          {...register('quantity')}
        />
        <TextField label="Unit price" required inputMode="decimal" error={errors.unit_price?.message} {...register('unit_price')} />
      </div>
      <TextAreaField label="Reason" required rows={2} placeholder="Customer asked for fewer" error={errors.reason?.message} {...register('reason')} />
    </FormDialog>
  );
}

const EMPTY_CLOSE_SHORT: CloseShortForm = { reason: '' };

/**
 * Closes an order short: the preview shows what each line will ship, the production
 * orders cancelled and the new total; the server's `blocking_reason` stops the submit.
 */
export function CloseShortDialog({ order, open, onClose }: { order: Pick<SalesOrder, 'id' | 'order_number'>; open: boolean; onClose: () => void }) {
  const toast = useToast();
  const invalidate = useSalesInvalidate();
  const [idemKey, setIdemKey] = useState(salesApi.newKey);
  const preview = useQuery({
    queryKey: queryKeys.sales.closeShortPreview(order.id),
    queryFn: ({ signal }) => salesApi.closeShortPreview(order.id, signal),
    enabled: open,
    staleTime: 0,
  });
  const form = useZodForm(closeShortSchema, { defaultValues: EMPTY_CLOSE_SHORT });
  const {
    register,
    formState: { errors },
  } = form;
  const p = preview.data;
  return (
    <FormDialog
      form={form}
      open={open}
      onClose={onClose}
      onReset={() => setIdemKey(salesApi.newKey())}
      size="lg"
      title={`Close short · ${order.order_number}`}
      description="Ship what is shipped, reserved or in stock and drop the rest: running production orders are cancelled and the order becomes ready to ship."
      id="close-short-form"
      label="Close short"
      submitLabel="Close short"
      submitDisabled={!p?.can_close}
      errorTitle="The order was not closed short"
      submit={(v) => salesApi.closeShort(order.id, v.reason, idemKey)}
      onSuccess={async (o) => {
        toast.success('Closed short', `${o.order_number} is ${humanize(o.status).toLowerCase()}; its total is ${formatMoney(o.grand_total)}.`);
        await invalidate();
      }}
      fields={['reason']}
    >
      {preview.error ? (
        <ErrorState compact error={preview.error} onRetry={() => void preview.refetch()} />
      ) : !p ? (
        <div aria-busy="true">
          <Skeleton width="70%" />
          <Skeleton width="50%" />
        </div>
      ) : (
        <>
          {!p.can_close && (
            <div className="alert alert--warning" role="status" data-testid="close-short-blocked">
              <AlertTriangle size={18} className="alert__icon" aria-hidden="true" />
              <div>
                <strong className="alert__title">It cannot be closed short now</strong>
                <span>{p.blocking_reason ?? 'The server refuses it.'}</span>
              </div>
            </div>
          )}
          <div className="so-scroll">
            <table className="table table--compact" aria-label="Lines after closing short">
              <thead>
                <tr>
                  <th scope="col">Item</th>
                  <th scope="col" className="align-right">
                    Ordered
                  </th>
                  <th scope="col" className="align-right">
                    Shipped
                  </th>
                  <th scope="col" className="align-right">
                    Reserved
                  </th>
                  <th scope="col" className="align-right">
                    Will ship
                  </th>
                  <th scope="col">Reason</th>
                </tr>
              </thead>
              <tbody>
                {p.lines.map((l) => (
                  <tr key={l.line_id} className={l.will_adjust ? 'so-shrinks' : undefined}>
                    <td>
                      <div className="cell-stack">
                        <span className="cell-strong">{l.product_sku ?? `#${l.product_id}`}</span>
                        {l.product_name && <span className="cell-sub">{l.product_name}</span>}
                      </div>
                    </td>
                    <td className="align-right num">{formatQty(l.ordered_qty)}</td>
                    <td className="align-right num">{formatQty(l.shipped_qty)}</td>
                    <td className="align-right num">{formatQty(l.reserved_qty)}</td>
                    <td className="align-right num">
                      {l.will_adjust ? <Badge tone={Number(l.achievable_qty) > 0 ? 'warning' : 'danger'}>{formatQty(l.achievable_qty)}</Badge> : formatQty(l.achievable_qty)}
                    </td>
                    <td className="cell-sub">{l.reason}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {p.production_orders.length > 0 && (
            <>
              <h3 className="so-subtitle">Production orders cancelled</h3>
              <div className="so-scroll">
                <table className="table table--compact" aria-label="Production orders cancelled">
                  <thead>
                    <tr>
                      <th scope="col">Production order</th>
                      <th scope="col">Status</th>
                      <th scope="col" className="align-right">
                        Made
                      </th>
                      <th scope="col">Action</th>
                    </tr>
                  </thead>
                  <tbody>
                    {p.production_orders.map((w) => (
                      <tr key={w.id}>
                        <td>
                          <Link to={`/admin/production/${w.id}`} className="mono">
                            {w.po_number}
                          </Link>
                        </td>
                        <td>
                          <Badge tone={WO_TONE[w.status] ?? 'neutral'}>{humanize(w.status)}</Badge>
                        </td>
                        <td className="align-right num">
                          {formatQty(w.completed)}/{formatQty(w.ordered)}
                        </td>
                        <td>{humanize(w.action)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </>
          )}
          <dl className="stat-row stat-row--compact" aria-label="After closing short">
            <div className="stat">
              <dt>New subtotal</dt>
              <dd>{formatMoney(p.new_subtotal)}</dd>
            </div>
            <div className="stat">
              <dt>New grand total</dt>
              <dd data-testid="close-short-total">{formatMoney(p.new_grand_total)}</dd>
            </div>
            <div className="stat">
              <dt>Invoiced</dt>
              <dd>{formatMoney(p.invoiced)}</dd>
            </div>
          </dl>
        </>
      )}
      <TextAreaField label="Reason" required rows={2} placeholder="Customer accepts a partial shipment" error={errors.reason?.message} {...register('reason')} />
    </FormDialog>
  );
}
