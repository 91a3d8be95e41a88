import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { zodResolver } from '@hookform/resolvers/zod';
import { useFieldArray, useForm, type Path } from 'react-hook-form';
import { Plus, Trash2 } from 'lucide-react';
import { customersApi, itemsApi } from '../../api/endpoints';
import { useAuth } from '../../auth/AuthContext';
import { isAdmin } from '../../auth/roles';
import { Button } from '../../components/Button';
import { FormError, SelectField, TextAreaField, TextField } from '../../components/Field';
import { Modal } from '../../components/Modal';
import { useToast } from '../../components/Toast';
import { formatMoney, humanize } from '../../lib/format';
import { applyServerErrors } from '../../lib/forms';
import {
  QUOTE_EDIT_FIELDS,
  addressBody,
  addressSchema,
  addressValues,
  quoteEditBody,
  quoteEditSchema,
  quoteEditValues,
  shippingDetailsBody,
  shippingDetailsSchema,
  shippingDetailsValues,
  type AddressForm,
  type QuoteEditForm,
  type ShippingDetailsForm,
  PAYMENT_METHODS,
  SHIPPING_EVENT_LABEL,
  SHIPPING_EVENT_SOURCE_LABEL,
  SHIPPING_EVENT_SOURCES,
  SHIPPING_EVENT_TYPES,
  createSalesOrderBody,
  noteBody,
  noteSchema,
  paymentDetailsBody,
  paymentDetailsSchema,
  SALES_PAYMENT_STATUSES,
  createSalesOrderSchema,
  paymentBody,
  paymentSchema,
  quoteBody,
  quoteSchema,
  quoteStatusSchema,
  salesApi,
  shipBody,
  shipSchema,
  trackingBody,
  trackingSchema,
  type CreateSalesOrderForm,
  type NoteForm,
  type PaymentDetailsForm,
  type SalesOrder,
  type PaymentForm,
  type Quote,
  type QuoteForm,
  type QuoteStatus,
  type QuoteStatusForm,
  type ShipForm,
  type TrackingForm,
} from './salesApi';

/** Invalidates every sales view: orders, payments, shipping, quotes (and production, fed by confirming). */
export function useSalesInvalidate() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all(
      [['sales'], ['payments'], ['shipping'], ['quotes'], ['production'], ['customers']].map((queryKey) => queryClient.invalidateQueries({ queryKey })),
    );
}

/** Active sellable items as select options. */
function useItemOptions(enabled: boolean) {
  const items = useQuery({
    queryKey: ['sales', 'item-options'],
    queryFn: ({ signal }) => itemsApi.list({ limit: 500, active_only: true, sort_by: 'sku' }, signal),
    enabled,
  });
  const options = (items.data?.items ?? []).map((i) => ({ value: String(i.id), label: `${i.sku} · ${i.name}` }));
  return { items, options };
}

/** Customers as select options; the list is admin-only, so operators order for themselves. */
function useCustomerOptions(enabled: boolean) {
  const { user } = useAuth();
  const admin = isAdmin(user);
  const customers = useQuery({
    queryKey: ['customers', 'options'],
    queryFn: ({ signal }) => customersApi.list({ limit: 200 }, signal),
    enabled: enabled && admin,
  });
  const options = (customers.data ?? []).map((c) => ({
    value: String(c.id),
    label: [c.customer_number, c.full_name || [c.first_name, c.last_name].filter(Boolean).join(' ') || c.email].filter(Boolean).join(' · '),
  }));
  return { admin, customers, options };
}

const EMPTY_ORDER: CreateSalesOrderForm = { customer_id: '', lines: [{ product_id: '', quantity: '1' }], shipping_cost: '', due_date: '', customer_notes: '', shipping_address_line1: '', shipping_city: '', shipping_state: '', shipping_zip: '' };

/** A pending order `SO-YYYY-NNNN`: the server prices each line from the item's selling price. */
export function CreateSalesOrderDialog({ open, onClose, onCreated }: { open: boolean; onClose: () => void; onCreated: (id: number) => void }) {
  const toast = useToast();
  const invalidate = useSalesInvalidate();
  const [formError, setFormError] = useState<string | null>(null);
  const [idemKey, setIdemKey] = useState(salesApi.newKey);
  const { items, options } = useItemOptions(open);
  const customers = useCustomerOptions(open);
  const {
    register,
    control,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm<CreateSalesOrderForm>({ resolver: zodResolver(createSalesOrderSchema), defaultValues: EMPTY_ORDER });
  const lines = useFieldArray({ control, name: 'lines' });
  const close = () => {
    reset(EMPTY_ORDER);
    setFormError(null);
    setIdemKey(salesApi.newKey());
    onClose();
  };
  const save = useMutation({
    mutationFn: (v: CreateSalesOrderForm) => salesApi.create(createSalesOrderBody(v), idemKey),
    onSuccess: async (o) => {
      toast.success('Order created', `${o.order_number} is pending; confirm it to reserve stock.`);
      await invalidate();
      close();
      onCreated(o.id);
    },
    onError: (err) => {
      const fields: Path<CreateSalesOrderForm>[] = ['customer_id', 'shipping_cost', 'due_date', 'customer_notes', 'shipping_address_line1', 'shipping_city', 'shipping_state', 'shipping_zip'];
      lines.fields.forEach((_, i) => fields.push(`lines.${i}.product_id`, `lines.${i}.quantity`));
      setFormError(applyServerErrors(err, setError, fields));
    },
  });
  return (
    <Modal
      open={open}
      onClose={close}
      size="lg"
      title="New sales order"
      description="Prices come from each item's selling price; tax from the company settings."
      footer={
        <>
          <Button variant="secondary" onClick={close}>
            Cancel
          </Button>
          <Button variant="primary" type="submit" form="sales-order-form" loading={save.isPending}>
            Create order
          </Button>
        </>
      }
    >
      <form
        id="sales-order-form"
        className="form"
        aria-label="New sales order"
        noValidate
        onSubmit={handleSubmit((v) => {
          setFormError(null);
          save.mutate(v);
        })}
      >
        <FormError message={formError} />
        {customers.admin && (
          <SelectField
            label="Customer"
            placeholder={customers.customers.isPending ? 'Loading customers…' : 'No customer (walk-in)'}
            options={customers.options}
            error={errors.customer_id?.message}
            {...register('customer_id')}
          />
        )}
        <fieldset className="so-lines">
          <legend>Lines</legend>
          {lines.fields.map((f, i) => {
            const e = errors.lines?.[i];
            return (
              <div key={f.id} className="so-line-row" data-testid="so-line">
                <SelectField
                  label={`Item ${i + 1}`}
                  placeholder={items.isPending ? 'Loading items…' : 'Choose an item'}
                  options={options}
                  error={e?.product_id?.message}
                  {...register(`lines.${i}.product_id`)}
                />
                <TextField label="Quantity" inputMode="numeric" error={e?.quantity?.message} {...register(`lines.${i}.quantity`)} />
                <button type="button" className="icon-btn so-line-row__remove" aria-label={`Remove line ${i + 1}`} disabled={lines.fields.length === 1} onClick={() => lines.remove(i)}>
                  <Trash2 size={16} />
                </button>
              </div>
            );
          })}
          {errors.lines?.message && <p className="field__error">{errors.lines.message}</p>}
          <div>
            <Button size="sm" variant="secondary" icon={<Plus size={14} />} onClick={() => lines.append({ product_id: '', quantity: '1' })}>
              Add line
            </Button>
          </div>
        </fieldset>
        <div className="form__grid">
          <TextField label="Shipping cost" inputMode="decimal" placeholder="0.00" error={errors.shipping_cost?.message} {...register('shipping_cost')} />
          <TextField label="Due date" type="date" error={errors.due_date?.message} {...register('due_date')} />
        </div>
        <TextField
          label="Ship to (street)"
          hint="Left empty, the customer's address is used."
          error={errors.shipping_address_line1?.message}
          {...register('shipping_address_line1')}
        />
        <div className="form__grid form__grid--3">
          <TextField label="City" error={errors.shipping_city?.message} {...register('shipping_city')} />
          <TextField label="State" error={errors.shipping_state?.message} {...register('shipping_state')} />
          <TextField label="Postal code" error={errors.shipping_zip?.message} {...register('shipping_zip')} />
        </div>
        <TextAreaField label="Customer notes" error={errors.customer_notes?.message} {...register('customer_notes')} />
      </form>
    </Modal>
  );
}

const EMPTY_SHIP: ShipForm = { carrier: 'USPS', service: 'Priority', tracking_number: '' };

/** Ships an order: goods issued, COGS and the invoice posted, the order `shipped` (one transaction). */
export function ShipDialog({ order, open, onClose }: { order: { id: number; order_number: string } | null; open: boolean; onClose: () => void }) {
  const toast = useToast();
  const invalidate = useSalesInvalidate();
  const [formError, setFormError] = useState<string | null>(null);
  const [idemKey, setIdemKey] = useState(salesApi.newKey);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm<ShipForm>({ resolver: zodResolver(shipSchema), defaultValues: EMPTY_SHIP });
  const close = () => {
    reset(EMPTY_SHIP);
    setFormError(null);
    setIdemKey(salesApi.newKey());
    onClose();
  };
  const ship = useMutation({
    mutationFn: (v: ShipForm) => salesApi.ship(order?.id ?? 0, shipBody(v), idemKey),
    onSuccess: async (r) => {
      toast.success('Shipped', `${order?.order_number ?? 'The order'} left with ${r.carrier} ${r.service}, tracking ${r.tracking_number}.`);
      await invalidate();
      close();
    },
    onError: (err) => setFormError(applyServerErrors(err, setError, ['carrier', 'service', 'tracking_number'])),
  });
  return (
    <Modal
      open={open}
      onClose={close}
      title={`Ship ${order?.order_number ?? ''}`.trim()}
      description="Finished goods and packaging are issued, and the invoice is posted."
      footer={
        <>
          <Button variant="secondary" onClick={close}>
            Cancel
          </Button>
          <Button variant="primary" type="submit" form="ship-form" loading={ship.isPending}>
            Ship order
          </Button>
        </>
      }
    >
      <form
        id="ship-form"
        className="form"
        aria-label="Ship order"
        noValidate
        onSubmit={handleSubmit((v) => {
          setFormError(null);
          ship.mutate(v);
        })}
      >
        <FormError message={formError} />
        <div className="form__grid">
          <TextField label="Carrier" required error={errors.carrier?.message} {...register('carrier')} />
          <TextField label="Service" required error={errors.service?.message} {...register('service')} />
        </div>
        <TextField label="Tracking number" hint="Left empty, one is generated." error={errors.tracking_number?.message} {...register('tracking_number')} />
      </form>
    </Modal>
  );
}

const EMPTY_PAYMENT: PaymentForm = { amount: '', payment_method: 'cash', transaction_id: '', check_number: '', notes: '' };
const METHOD_OPTIONS = PAYMENT_METHODS.map((m) => ({ value: m, label: humanize(m) }));

/**
 * Records a payment (1000 Cash / 1100 AR) or a refund (the reverse, never more than is paid)
 * against an order; `orders` lets the payments page choose the order.
 */
export function PaymentDialog({
  mode,
  orderId,
  orderLabel,
  maxRefund,
  open,
  onClose,
}: {
  mode: 'payment' | 'refund';
  orderId: number | null;
  orderLabel?: string;
  maxRefund?: number;
  open: boolean;
  onClose: () => void;
}) {
  const toast = useToast();
  const invalidate = useSalesInvalidate();
  const [formError, setFormError] = useState<string | null>(null);
  const [idemKey, setIdemKey] = useState(salesApi.newKey);
  const [chosen, setChosen] = useState('');
  const orders = useQuery({
    queryKey: ['sales', 'order-options'],
    queryFn: ({ signal }) => salesApi.list({ limit: 100, sort_by: 'created_at', sort_order: 'desc' }, signal),
    enabled: open && orderId === null,
  });
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm<PaymentForm>({ resolver: zodResolver(paymentSchema(mode === 'refund' ? maxRefund : undefined)), defaultValues: EMPTY_PAYMENT });
  const close = () => {
    reset(EMPTY_PAYMENT);
    setChosen('');
    setFormError(null);
    setIdemKey(salesApi.newKey());
    onClose();
  };
  const target = orderId ?? (chosen ? Number(chosen) : null);
  const save = useMutation({
    mutationFn: (v: PaymentForm) => {
      const body = paymentBody(target ?? 0, v);
      return mode === 'refund' ? salesApi.refund(body, idemKey) : salesApi.recordPayment(body, idemKey);
    },
    onSuccess: async (p) => {
      toast.success(mode === 'refund' ? 'Refund recorded' : 'Payment recorded', `${p.payment_number} for ${p.order_number ?? 'the order'}.`);
      await invalidate();
      close();
    },
    onError: (err) => setFormError(applyServerErrors(err, setError, ['amount', 'payment_method', 'transaction_id', 'check_number', 'notes'])),
  });
  const title = mode === 'refund' ? 'Record a refund' : 'Record a payment';
  return (
    <Modal
      open={open}
      onClose={close}
      title={orderLabel ? `${title} · ${orderLabel}` : title}
      description={mode === 'refund' ? 'Money back to the customer; never more than was paid.' : 'Money received against the order.'}
      footer={
        <>
          <Button variant="secondary" onClick={close}>
            Cancel
          </Button>
          <Button variant="primary" type="submit" form="payment-form" loading={save.isPending}>
            {mode === 'refund' ? 'Record refund' : 'Record payment'}
          </Button>
        </>
      }
    >
      <form
        id="payment-form"
        className="form"
        aria-label={title}
        noValidate
        onSubmit={handleSubmit((v) => {
          setFormError(null);
          if (target === null) {
            setFormError('Choose the order.');
            return;
          }
          save.mutate(v);
        })}
      >
        <FormError message={formError} />
        {orderId === null && (
          <SelectField
            label="Order"
            required
            placeholder={orders.isPending ? 'Loading orders…' : 'Choose an order'}
            options={(orders.data ?? []).map((o) => ({ value: String(o.id), label: `${o.order_number} · ${o.customer_name ?? 'no customer'} · ${o.grand_total}` }))}
            value={chosen}
            onChange={(e) => setChosen(e.target.value)}
          />
        )}
        <div className="form__grid">
          <TextField label="Amount" required inputMode="decimal" placeholder="0.00" error={errors.amount?.message} {...register('amount')} />
          <SelectField label="Method" required options={METHOD_OPTIONS} error={errors.payment_method?.message} {...register('payment_method')} />
        </div>
        <div className="form__grid">
          <TextField label="Reference" hint="The processor's transaction id." error={errors.transaction_id?.message} {...register('transaction_id')} />
          {mode === 'payment' && <TextField label="Check number" error={errors.check_number?.message} {...register('check_number')} />}
        </div>
        <TextAreaField label="Notes" error={errors.notes?.message} {...register('notes')} />
      </form>
    </Modal>
  );
}

const EMPTY_QUOTE: QuoteForm = {
  product_id: '',
  product_name: '',
  quantity: '1',
  unit_price: '',
  customer_id: '',
  customer_email: '',
  shipping_cost: '',
  valid_days: '30',
  customer_notes: '',
};

/** A pending quote `Q-YYYY-NNNN`; tax as the company settings say. */
export function QuoteDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const toast = useToast();
  const invalidate = useSalesInvalidate();
  const [formError, setFormError] = useState<string | null>(null);
  const [idemKey, setIdemKey] = useState(salesApi.newKey);
  const { items, options } = useItemOptions(open);
  const customers = useCustomerOptions(open);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    setValue,
    formState: { errors },
  } = useForm<QuoteForm>({ resolver: zodResolver(quoteSchema), defaultValues: EMPTY_QUOTE });
  const close = () => {
    reset(EMPTY_QUOTE);
    setFormError(null);
    setIdemKey(salesApi.newKey());
    onClose();
  };
  const save = useMutation({
    mutationFn: (v: QuoteForm) => salesApi.createQuote(quoteBody(v), idemKey),
    onSuccess: async (q) => {
      toast.success('Quote created', `${q.quote_number} is pending.`);
      await invalidate();
      close();
    },
    onError: (err) =>
      setFormError(
        applyServerErrors(err, setError, ['product_id', 'product_name', 'quantity', 'unit_price', 'customer_id', 'customer_email', 'shipping_cost', 'valid_days', 'customer_notes']),
      ),
  });
  const product = register('product_id');
  return (
    <Modal
      open={open}
      onClose={close}
      size="lg"
      title="New quote"
      footer={
        <>
          <Button variant="secondary" onClick={close}>
            Cancel
          </Button>
          <Button variant="primary" type="submit" form="quote-form" loading={save.isPending}>
            Create quote
          </Button>
        </>
      }
    >
      <form
        id="quote-form"
        className="form"
        aria-label="New quote"
        noValidate
        onSubmit={handleSubmit((v) => {
          setFormError(null);
          save.mutate(v);
        })}
      >
        <FormError message={formError} />
        <SelectField
          label="Item"
          placeholder={items.isPending ? 'Loading items…' : 'A custom part (no item)'}
          options={options}
          error={errors.product_id?.message}
          {...product}
          onChange={(e) => {
            void product.onChange(e);
            const item = items.data?.items.find((i) => String(i.id) === e.target.value);
            if (item) {
              setValue('product_name', item.name);
              if (item.selling_price) setValue('unit_price', String(item.selling_price));
            }
          }}
        />
        <TextField label="What is quoted" required error={errors.product_name?.message} {...register('product_name')} />
        <div className="form__grid form__grid--3">
          <TextField label="Quantity" required inputMode="numeric" error={errors.quantity?.message} {...register('quantity')} />
          <TextField label="Unit price" required inputMode="decimal" placeholder="0.00" error={errors.unit_price?.message} {...register('unit_price')} />
          <TextField label="Shipping cost" inputMode="decimal" placeholder="0.00" error={errors.shipping_cost?.message} {...register('shipping_cost')} />
        </div>
        <div className="form__grid form__grid--3">
          {customers.admin && (
            <SelectField label="Customer" placeholder="None" options={customers.options} error={errors.customer_id?.message} {...register('customer_id')} />
          )}
          <TextField label="Customer e-mail" type="email" error={errors.customer_email?.message} {...register('customer_email')} />
          <TextField label="Valid for (days)" inputMode="numeric" error={errors.valid_days?.message} {...register('valid_days')} />
        </div>
        <TextAreaField label="Customer notes" error={errors.customer_notes?.message} {...register('customer_notes')} />
      </form>
    </Modal>
  );
}

/**
 * Edits a quote (any status but converted; the server's 400 shows in the form otherwise).
 * The form starts from the quote; the totals follow on the server.
 */
export function QuoteEditDialog({ quote, open, onClose }: { quote: Quote | null; open: boolean; onClose: () => void }) {
  const toast = useToast();
  const invalidate = useSalesInvalidate();
  const [formError, setFormError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm<QuoteEditForm>({ resolver: zodResolver(quoteEditSchema), values: quote ? quoteEditValues(quote) : undefined });
  const close = () => {
    reset();
    setFormError(null);
    onClose();
  };
  const save = useMutation({
    mutationFn: (v: QuoteEditForm) => salesApi.updateQuote(quote?.id ?? 0, quoteEditBody(v)),
    onSuccess: async (q) => {
      toast.success('Quote saved', `${q.quote_number} now totals ${formatMoney(q.total_price)}.`);
      await invalidate();
      close();
    },
    onError: (err) => setFormError(applyServerErrors(err, setError, QUOTE_EDIT_FIELDS)),
  });
  return (
    <Modal
      open={open}
      onClose={close}
      size="lg"
      title={`Edit ${quote?.quote_number ?? 'the quote'}`}
      description="The totals follow the quantity, price and shipping. A field emptied here keeps its current text."
      footer={
        <>
          <Button variant="secondary" onClick={close}>
            Cancel
          </Button>
          <Button variant="primary" type="submit" form="quote-edit-form" loading={save.isPending}>
            Save quote
          </Button>
        </>
      }
    >
      <form
        id="quote-edit-form"
        className="form"
        aria-label="Edit quote"
        noValidate
        onSubmit={handleSubmit((v) => {
          setFormError(null);
          save.mutate(v);
        })}
      >
        <FormError message={formError} />
        <TextField label="What is quoted" required error={errors.product_name?.message} {...register('product_name')} />
        <TextAreaField label="Description" rows={2} error={errors.description?.message} {...register('description')} />
        <div className="form__grid form__grid--3">
          <TextField label="Quantity" required inputMode="numeric" error={errors.quantity?.message} {...register('quantity')} />
          <TextField label="Unit price" required inputMode="decimal" error={errors.unit_price?.message} {...register('unit_price')} />
          <TextField label="Shipping cost" inputMode="decimal" error={errors.shipping_cost?.message} {...register('shipping_cost')} />
        </div>
        <TextField label="Color" error={errors.color?.message} {...register('color')} />
        <div className="form__grid">
          <TextAreaField label="Customer notes" rows={2} error={errors.customer_notes?.message} {...register('customer_notes')} />
          <TextAreaField label="Staff notes" rows={2} error={errors.admin_notes?.message} {...register('admin_notes')} />
        </div>
        <fieldset className="fieldset form__stack">
          <legend>Ship to</legend>
          <div className="form__grid">
            <TextField label="Name" error={errors.shipping_name?.message} {...register('shipping_name')} />
            <TextField label="Phone" type="tel" error={errors.shipping_phone?.message} {...register('shipping_phone')} />
          </div>
          <div className="form__grid">
            <TextField label="Street" error={errors.shipping_address_line1?.message} {...register('shipping_address_line1')} />
            <TextField label="Second line" error={errors.shipping_address_line2?.message} {...register('shipping_address_line2')} />
          </div>
          <div className="form__grid form__grid--4">
            <TextField label="City" error={errors.shipping_city?.message} {...register('shipping_city')} />
            <TextField label="State" error={errors.shipping_state?.message} {...register('shipping_state')} />
            <TextField label="Postal code" error={errors.shipping_zip?.message} {...register('shipping_zip')} />
            <TextField label="Country" error={errors.shipping_country?.message} {...register('shipping_country')} />
          </div>
        </fieldset>
      </form>
    </Modal>
  );
}

/** Moves a quote to another status; rejecting asks why. */
export function QuoteStatusDialog({ quote, to, open, onClose }: { quote: Quote | null; to: QuoteStatus | null; open: boolean; onClose: () => void }) {
  const toast = useToast();
  const invalidate = useSalesInvalidate();
  const [formError, setFormError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm<QuoteStatusForm>({ resolver: zodResolver(quoteStatusSchema), values: { status: to ?? 'pending', rejection_reason: '' } });
  const close = () => {
    reset();
    setFormError(null);
    onClose();
  };
  const save = useMutation({
    mutationFn: (v: QuoteStatusForm) => salesApi.quoteStatus(quote?.id ?? 0, v),
    onSuccess: async (q) => {
      toast.success('Quote updated', `${q.quote_number} is ${humanize(q.status).toLowerCase()}.`);
      await invalidate();
      close();
    },
    onError: (err) => setFormError(applyServerErrors(err, setError, ['status', 'rejection_reason'])),
  });
  return (
    <Modal
      open={open}
      onClose={close}
      size="sm"
      title={`Mark ${quote?.quote_number ?? 'the quote'} ${humanize(to ?? '').toLowerCase()}?`}
      footer={
        <>
          <Button variant="secondary" onClick={close}>
            Keep as is
          </Button>
          <Button variant={to === 'rejected' || to === 'cancelled' ? 'danger' : 'primary'} type="submit" form="quote-status-form" loading={save.isPending}>
            Mark {humanize(to ?? '').toLowerCase()}
          </Button>
        </>
      }
    >
      <form
        id="quote-status-form"
        className="form"
        aria-label="Change quote status"
        noValidate
        onSubmit={handleSubmit((v) => {
          setFormError(null);
          save.mutate(v);
        })}
      >
        <FormError message={formError} />
        {to === 'rejected' && <TextAreaField label="Why rejected" required error={errors.rejection_reason?.message} {...register('rejection_reason')} />}
        {to !== 'rejected' && <p className="muted">The quote moves to {humanize(to ?? '').toLowerCase()}.</p>}
      </form>
    </Modal>
  );
}

const EMPTY_NOTE: NoteForm = { title: '', description: '' };

/** Adds a note to the order's history (admins; the server also lets the order's owner). */
export function NoteDialog({ order, open, onClose }: { order: { id: number; order_number: string }; open: boolean; onClose: () => void }) {
  const toast = useToast();
  const invalidate = useSalesInvalidate();
  const [formError, setFormError] = useState<string | null>(null);
  const [idemKey, setIdemKey] = useState(salesApi.newKey);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm<NoteForm>({ resolver: zodResolver(noteSchema), defaultValues: EMPTY_NOTE });
  const close = () => {
    reset(EMPTY_NOTE);
    setFormError(null);
    setIdemKey(salesApi.newKey());
    onClose();
  };
  const save = useMutation({
    mutationFn: (v: NoteForm) => salesApi.addNote(order.id, noteBody(v), idemKey),
    onSuccess: async () => {
      toast.success('Note added', `The note is in ${order.order_number}'s history.`);
      await invalidate();
      close();
    },
    onError: (err) => setFormError(applyServerErrors(err, setError, ['title', 'description'])),
  });
  return (
    <Modal
      open={open}
      onClose={close}
      title={`Add a note · ${order.order_number}`}
      description="Notes stay in the order's history with who wrote them and when."
      footer={
        <>
          <Button variant="secondary" onClick={close}>
            Cancel
          </Button>
          <Button variant="primary" type="submit" form="note-form" loading={save.isPending}>
            Add note
          </Button>
        </>
      }
    >
      <form
        id="note-form"
        className="form"
        aria-label="Add a note"
        noValidate
        onSubmit={handleSubmit((v) => {
          setFormError(null);
          save.mutate(v);
        })}
      >
        <FormError message={formError} />
        <TextAreaField label="Note" required rows={3} hint="Up to 255 characters; longer text goes in the details." error={errors.title?.message} {...register('title')} />
        <TextAreaField label="Details" rows={4} error={errors.description?.message} {...register('description')} />
      </form>
    </Modal>
  );
}

const EMPTY_TRACKING: TrackingForm = { event_type: 'in_transit', event_at: '', location: '', description: '', source: 'manual' };
const TRACKING_TYPE_OPTIONS = SHIPPING_EVENT_TYPES.map((t) => ({ value: t, label: SHIPPING_EVENT_LABEL[t] }));
const TRACKING_SOURCE_OPTIONS = SHIPPING_EVENT_SOURCES.map((s) => ({ value: s, label: SHIPPING_EVENT_SOURCE_LABEL[s] }));

/** Records a carrier tracking update on a shipped order; `delivered` moves it to delivered. */
export function TrackingDialog({ order, open, onClose }: { order: { id: number; order_number: string }; open: boolean; onClose: () => void }) {
  const toast = useToast();
  const invalidate = useSalesInvalidate();
  const [formError, setFormError] = useState<string | null>(null);
  const [idemKey, setIdemKey] = useState(salesApi.newKey);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm<TrackingForm>({ resolver: zodResolver(trackingSchema()), defaultValues: EMPTY_TRACKING });
  const close = () => {
    reset(EMPTY_TRACKING);
    setFormError(null);
    setIdemKey(salesApi.newKey());
    onClose();
  };
  const save = useMutation({
    mutationFn: (v: TrackingForm) => salesApi.recordShippingEvent(order.id, trackingBody(v), idemKey),
    onSuccess: async (e) => {
      toast.success(
        'Tracking updated',
        e.event_type === 'delivered' ? `${order.order_number} is delivered.` : `${SHIPPING_EVENT_LABEL[e.event_type]} recorded for ${order.order_number}.`,
      );
      // The order itself may have moved (delivered): every sales view is refetched.
      await invalidate();
      close();
    },
    onError: (err) => setFormError(applyServerErrors(err, setError, ['event_type', 'event_at', 'location', 'description', 'source'])),
  });
  return (
    <Modal
      open={open}
      onClose={close}
      title={`Tracking update · ${order.order_number}`}
      description="What the carrier reported. Delivered marks the order delivered."
      footer={
        <>
          <Button variant="secondary" onClick={close}>
            Cancel
          </Button>
          <Button variant="primary" type="submit" form="tracking-form" loading={save.isPending}>
            Record update
          </Button>
        </>
      }
    >
      <form
        id="tracking-form"
        className="form"
        aria-label="Tracking update"
        noValidate
        onSubmit={handleSubmit((v) => {
          setFormError(null);
          save.mutate(v);
        })}
      >
        <FormError message={formError} />
        <div className="form__grid">
          <SelectField label="Event" required options={TRACKING_TYPE_OPTIONS} error={errors.event_type?.message} {...register('event_type')} />
          <TextField label="When" type="datetime-local" hint="Left empty: now." error={errors.event_at?.message} {...register('event_at')} />
        </div>
        <div className="form__grid">
          <TextField label="Location" placeholder="Memphis, TN" error={errors.location?.message} {...register('location')} />
          <SelectField label="Reported by" options={TRACKING_SOURCE_OPTIONS} error={errors.source?.message} {...register('source')} />
        </div>
        <TextAreaField label="Description" error={errors.description?.message} {...register('description')} />
      </form>
    </Modal>
  );
}

const PAYMENT_STATUS_OPTIONS = SALES_PAYMENT_STATUSES.map((s) => ({ value: s, label: humanize(s) }));

/**
 * An admin's payment details on an order: the customer's method and the processor's
 * reference, and the overdue or refunded flag. Pending, partial and paid follow the recorded
 * payments; the server's 400 says what is paid when they disagree.
 */
export function PaymentDetailsDialog({ order, open, onClose }: { order: SalesOrder; open: boolean; onClose: () => void }) {
  const toast = useToast();
  const invalidate = useSalesInvalidate();
  const [formError, setFormError] = useState<string | null>(null);
  const current = (): PaymentDetailsForm => ({
    payment_status: order.payment_status,
    payment_method: order.payment_method ?? '',
    payment_transaction_id: order.payment_transaction_id ?? '',
  });
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm<PaymentDetailsForm>({ resolver: zodResolver(paymentDetailsSchema), values: current() });
  const close = () => {
    reset(current());
    setFormError(null);
    onClose();
  };
  const save = useMutation({
    mutationFn: (v: PaymentDetailsForm) => salesApi.setPaymentDetails(order.id, paymentDetailsBody(v)),
    onSuccess: async (o) => {
      toast.success('Payment details saved', `${o.order_number} is ${humanize(o.payment_status).toLowerCase()}.`);
      await invalidate();
      close();
    },
    onError: (err) => setFormError(applyServerErrors(err, setError, ['payment_status', 'payment_method', 'payment_transaction_id'])),
  });
  return (
    <Modal
      open={open}
      onClose={close}
      title={`Payment details · ${order.order_number}`}
      description="Pending, partial and paid follow the payments recorded below. Flag an unpaid balance as overdue, or a fully refunded order as refunded."
      footer={
        <>
          <Button variant="secondary" onClick={close}>
            Cancel
          </Button>
          <Button variant="primary" type="submit" form="payment-details-form" loading={save.isPending}>
            Save
          </Button>
        </>
      }
    >
      <form
        id="payment-details-form"
        className="form"
        aria-label="Payment details"
        noValidate
        onSubmit={handleSubmit((v) => {
          setFormError(null);
          save.mutate(v);
        })}
      >
        <FormError message={formError} />
        <SelectField label="Payment status" required options={PAYMENT_STATUS_OPTIONS} error={errors.payment_status?.message} {...register('payment_status')} />
        <div className="form__grid">
          <TextField label="Method" placeholder="Etsy Payments" hint="Left empty: unchanged." error={errors.payment_method?.message} {...register('payment_method')} />
          <TextField label="Transaction reference" hint="Left empty: unchanged." error={errors.payment_transaction_id?.message} {...register('payment_transaction_id')} />
        </div>
      </form>
    </Modal>
  );
}

/**
 * Changes where an order ships (its owner or an admin, until it has shipped; the server's
 * 400 shows in the form when it already has). Starts from the order's address.
 */
export function AddressDialog({ order, open, onClose }: { order: SalesOrder; open: boolean; onClose: () => void }) {
  const toast = useToast();
  const invalidate = useSalesInvalidate();
  const [formError, setFormError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm<AddressForm>({ resolver: zodResolver(addressSchema), values: addressValues(order) });
  const close = () => {
    reset();
    setFormError(null);
    onClose();
  };
  const save = useMutation({
    mutationFn: (v: AddressForm) => salesApi.setAddress(order.id, addressBody(v)),
    onSuccess: async (o) => {
      toast.success('Address changed', `${o.order_number} ships to ${[o.shipping_address_line1, o.shipping_city].filter(Boolean).join(', ')}.`);
      await invalidate();
      close();
    },
    onError: (err) =>
      setFormError(
        applyServerErrors(err, setError, ['shipping_address_line1', 'shipping_address_line2', 'shipping_city', 'shipping_state', 'shipping_zip', 'shipping_country']),
      ),
  });
  return (
    <Modal
      open={open}
      onClose={close}
      title={`Change address · ${order.order_number}`}
      description="Where the order ships. A field emptied here keeps its current text."
      footer={
        <>
          <Button variant="secondary" onClick={close}>
            Cancel
          </Button>
          <Button variant="primary" type="submit" form="address-form" loading={save.isPending}>
            Save address
          </Button>
        </>
      }
    >
      <form
        id="address-form"
        className="form"
        aria-label="Change address"
        noValidate
        onSubmit={handleSubmit((v) => {
          setFormError(null);
          save.mutate(v);
        })}
      >
        <FormError message={formError} />
        <TextField label="Street" required autoComplete="address-line1" error={errors.shipping_address_line1?.message} {...register('shipping_address_line1')} />
        <TextField label="Second line" autoComplete="address-line2" error={errors.shipping_address_line2?.message} {...register('shipping_address_line2')} />
        <div className="form__grid">
          <TextField label="City" autoComplete="address-level2" error={errors.shipping_city?.message} {...register('shipping_city')} />
          <TextField label="State" autoComplete="address-level1" error={errors.shipping_state?.message} {...register('shipping_state')} />
        </div>
        <div className="form__grid">
          <TextField label="Postal code" autoComplete="postal-code" error={errors.shipping_zip?.message} {...register('shipping_zip')} />
          <TextField label="Country" autoComplete="country-name" error={errors.shipping_country?.message} {...register('shipping_country')} />
        </div>
      </form>
    </Modal>
  );
}

/**
 * An admin's shipping details on an order: carrier, tracking number and when it left, e.g.
 * for a parcel sent outside Strata. Starts from what the order has.
 */
export function ShippingDetailsDialog({ order, open, onClose }: { order: SalesOrder; open: boolean; onClose: () => void }) {
  const toast = useToast();
  const invalidate = useSalesInvalidate();
  const [formError, setFormError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm<ShippingDetailsForm>({ resolver: zodResolver(shippingDetailsSchema), values: shippingDetailsValues(order) });
  const close = () => {
    reset();
    setFormError(null);
    onClose();
  };
  const save = useMutation({
    mutationFn: (v: ShippingDetailsForm) => salesApi.setShippingDetails(order.id, shippingDetailsBody(v)),
    onSuccess: async (o) => {
      toast.success('Shipping details saved', `${o.order_number}: ${[o.carrier, o.tracking_number].filter(Boolean).join(' ') || 'saved'}.`);
      await invalidate();
      close();
    },
    onError: (err) => setFormError(applyServerErrors(err, setError, ['carrier', 'tracking_number', 'shipped_at'])),
  });
  return (
    <Modal
      open={open}
      onClose={close}
      title={`Shipping details · ${order.order_number}`}
      description="The carrier, tracking number and ship date on the order. A field emptied here keeps its current value."
      footer={
        <>
          <Button variant="secondary" onClick={close}>
            Cancel
          </Button>
          <Button variant="primary" type="submit" form="shipping-details-form" loading={save.isPending}>
            Save
          </Button>
        </>
      }
    >
      <form
        id="shipping-details-form"
        className="form"
        aria-label="Shipping details"
        noValidate
        onSubmit={handleSubmit((v) => {
          setFormError(null);
          save.mutate(v);
        })}
      >
        <FormError message={formError} />
        <div className="form__grid">
          <TextField label="Carrier" placeholder="UPS" error={errors.carrier?.message} {...register('carrier')} />
          <TextField label="Tracking number" error={errors.tracking_number?.message} {...register('tracking_number')} />
        </div>
        <TextField label="Shipped at" type="datetime-local" error={errors.shipped_at?.message} {...register('shipped_at')} />
      </form>
    </Modal>
  );
}
