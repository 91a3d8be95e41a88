import { useState } from 'react';
import { useFieldArray, type Path } from 'react-hook-form';
import { Plus, Trash2 } from 'lucide-react';
import { Button } from '../../components/Button';
import { SelectField, TextAreaField, TextField } from '../../components/Field';
import { FormDialog, useZodForm } from '../../components/FormDialog';
import { useToast } from '../../components/Toast';
import { createSalesOrderBody, createSalesOrderSchema, salesApi, type CreateSalesOrderForm } from './salesApi';
import { useCustomerOptions, useItemOptions, useSalesInvalidate } from './salesHooks';

const EMPTY_ORDER: CreateSalesOrderForm = { customer_id: '', lines: [{ product_id: '', quantity: '1' }], shipping_cost: '', due_date: '', customer_notes: '', shipping_address_line1: '', shipping_city: '', shipping_state: '', shipping_zip: '' };
const HEADER_FIELDS: Path<CreateSalesOrderForm>[] = ['customer_id', 'shipping_cost', 'due_date', 'customer_notes', 'shipping_address_line1', 'shipping_city', 'shipping_state', 'shipping_zip'];

/** A pending order `SO-YYYY-NNNN`: the server prices each line from the item's selling price. */
export function CreateSalesOrderDialog({ open, onClose, onCreated }: { open: boolean; onClose: () => void; onCreated: (id: number) => void }) {
  const toast = useToast();
  const invalidate = useSalesInvalidate();
  const [idemKey, setIdemKey] = useState(salesApi.newKey);
  const { items, options } = useItemOptions(open);
  const customers = useCustomerOptions(open);
  const form = useZodForm(createSalesOrderSchema, { defaultValues: EMPTY_ORDER });
  const {
    register,
    control,
    formState: { errors },
  } = form;
  const lines = useFieldArray({ control, name: 'lines' });
  const fields = [...HEADER_FIELDS, ...lines.fields.flatMap((_, i) => [`lines.${i}.product_id`, `lines.${i}.quantity`] as const)];
  return (
    <FormDialog
      form={form}
      open={open}
      onClose={onClose}
      onReset={() => setIdemKey(salesApi.newKey())}
      size="lg"
      title="New sales order"
      description="Prices come from each item's selling price; tax from the company settings."
      id="sales-order-form"
      label="New sales order"
      submitLabel="Create order"
      submit={(v) => salesApi.create(createSalesOrderBody(v), idemKey)}
      onSuccess={async (o) => {
        toast.success('Order created', `${o.order_number} is pending; confirm it to reserve stock.`);
        await invalidate();
        onCreated(o.id);
      }}
      fields={fields}
    >
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
    </FormDialog>
  );
}
