import { useState } from 'react';
import { SelectField, TextAreaField, TextField } from '../../components/Field';
import { FormDialog, useZodForm } from '../../components/FormDialog';
import { useToast } from '../../components/Toast';
import { formatMoney, humanize } from '../../lib/format';
import {
  QUOTE_EDIT_FIELDS,
  quoteBody,
  quoteEditBody,
  quoteEditSchema,
  quoteEditValues,
  quoteSchema,
  quoteStatusSchema,
  salesApi,
  type Quote,
  type QuoteForm,
  type QuoteStatus,
} from './salesApi';
import { useCustomerOptions, useItemOptions, useSalesInvalidate } from './salesHooks';

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
  const [idemKey, setIdemKey] = useState(salesApi.newKey);
  const { items, options } = useItemOptions(open);
  const customers = useCustomerOptions(open);
  const form = useZodForm(quoteSchema, { defaultValues: EMPTY_QUOTE });
  const {
    register,
    setValue,
    formState: { errors },
  } = form;
  const product = register('product_id');
  return (
    <FormDialog
      form={form}
      open={open}
      onClose={onClose}
      onReset={() => setIdemKey(salesApi.newKey())}
      size="lg"
      title="New quote"
      id="quote-form"
      label="New quote"
      submitLabel="Create quote"
      submit={(v) => salesApi.createQuote(quoteBody(v), idemKey)}
      onSuccess={async (q) => {
        toast.success('Quote created', `${q.quote_number} is pending.`);
        await invalidate();
      }}
      fields={['product_id', 'product_name', 'quantity', 'unit_price', 'customer_id', 'customer_email', 'shipping_cost', 'valid_days', 'customer_notes']}
    >
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
    </FormDialog>
  );
}

/**
 * Edits a quote (any status but converted; the server's 400 shows in the form otherwise).
 * The form starts from the quote; the totals follow on the server.
 */
export function QuoteEditDialog({ quote, open, onClose }: { quote: Quote | null; open: boolean; onClose: () => void }) {
  const toast = useToast();
  const invalidate = useSalesInvalidate();
  const form = useZodForm(quoteEditSchema, { values: quote ? quoteEditValues(quote) : undefined });
  const {
    register,
    formState: { errors },
  } = form;
  return (
    <FormDialog
      form={form}
      open={open}
      onClose={onClose}
      size="lg"
      title={`Edit ${quote?.quote_number ?? 'the quote'}`}
      description="The totals follow the quantity, price and shipping. A field emptied here keeps its current text."
      id="quote-edit-form"
      label="Edit quote"
      submitLabel="Save quote"
      submit={(v) => salesApi.updateQuote(quote?.id ?? 0, quoteEditBody(v))}
      onSuccess={async (q) => {
        toast.success('Quote saved', `${q.quote_number} now totals ${formatMoney(q.total_price)}.`);
        await invalidate();
      }}
      fields={QUOTE_EDIT_FIELDS}
    >
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
    </FormDialog>
  );
}

/** Moves a quote to another status; rejecting asks why. */
export function QuoteStatusDialog({ quote, to, open, onClose }: { quote: Quote | null; to: QuoteStatus | null; open: boolean; onClose: () => void }) {
  const toast = useToast();
  const invalidate = useSalesInvalidate();
  const form = useZodForm(quoteStatusSchema, { values: { status: to ?? 'pending', rejection_reason: '' } });
  const {
    register,
    formState: { errors },
  } = form;
  return (
    <FormDialog
      form={form}
      open={open}
      onClose={onClose}
      size="sm"
      title={`Mark ${quote?.quote_number ?? 'the quote'} ${humanize(to ?? '').toLowerCase()}?`}
      id="quote-status-form"
      label="Change quote status"
      cancelLabel="Keep as is"
      submitVariant={to === 'rejected' || to === 'cancelled' ? 'danger' : 'primary'}
      submitLabel={<>Mark {humanize(to ?? '').toLowerCase()}</>}
      submit={(v) => salesApi.quoteStatus(quote?.id ?? 0, v)}
      onSuccess={async (q) => {
        toast.success('Quote updated', `${q.quote_number} is ${humanize(q.status).toLowerCase()}.`);
        await invalidate();
      }}
      fields={['status', 'rejection_reason']}
    >
      {to === 'rejected' && <TextAreaField label="Why rejected" required error={errors.rejection_reason?.message} {...register('rejection_reason')} />}
      {to !== 'rejected' && <p className="muted">The quote moves to {humanize(to ?? '').toLowerCase()}.</p>}
    </FormDialog>
  );
}
