import { useQuery, useQueryClient } from '@tanstack/react-query';
import { itemsApi } from '../../api/endpoints';
import { SelectField, TextAreaField, TextField } from '../../components/Field';
import { FormDialog, useZodForm } from '../../components/FormDialog';
import { useToast } from '../../components/Toast';
import {
  PURCHASE_UNITS,
  lineCreateSchema,
  lineUpdateSchema,
  poHeaderSchema,
  purchasingApi,
  type PoHeaderBody,
  type PoHeaderValues,
  type PoLineBody,
  type PoLineValues,
  type PurchaseOrder,
  type PurchaseOrderLine,
} from './purchasingApi';
import { queryKeys } from '../../api/queryKeys';
import { useVendorOptions } from './vendorOptions';

const HEADER_FIELDS = ['vendor_id', 'expected_date', 'shipping_cost', 'tax_amount', 'notes'] as const;
const LINE_FIELDS = ['product_id', 'quantity_ordered', 'unit_cost', 'purchase_unit', 'notes'] as const;

/** A number as the server sends it ("20.0000"), as a person types it ("20"). */
const plain = (v: string | number | null | undefined) => (v === null || v === undefined || v === '' ? '' : String(Number(v)));

/** A draft's header: vendor, expected date, shipping, tax and notes (PUT /purchase-orders/{id}). */
export function PoHeaderDialog({ po, open, onClose }: { po: PurchaseOrder; open: boolean; onClose: () => void }) {
  return open ? <HeaderForm key={po.id} po={po} onClose={onClose} /> : null;
}

function HeaderForm({ po, onClose }: { po: PurchaseOrder; onClose: () => void }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const vendors = useVendorOptions();
  const form = useZodForm<PoHeaderValues, PoHeaderBody>(poHeaderSchema(po), {
    defaultValues: {
      vendor_id: String(po.vendor_id),
      expected_date: po.expected_date ?? '',
      shipping_cost: plain(po.shipping_cost),
      tax_amount: plain(po.tax_amount),
      notes: po.notes ?? '',
    },
  });
  const {
    register,
    formState: { errors },
  } = form;
  const options = [...vendors.options];
  // The order's vendor stays choosable even when the list leaves it out (inactive).
  if (!options.some((o) => o.value === String(po.vendor_id))) options.unshift({ value: String(po.vendor_id), label: po.vendor_name });
  return (
    <FormDialog
      form={form}
      open
      onClose={onClose}
      title={`Edit ${po.po_number}`}
      description="A draft's details; the vendor can change until the order is placed."
      id="po-header-form"
      label={`Edit ${po.po_number}`}
      submitLabel="Save"
      submit={(body) => purchasingApi.update(po.id, body)}
      onSuccess={async (r) => {
        toast.success('Purchase order saved', `${r.po_number} is saved.`);
        await queryClient.invalidateQueries({ queryKey: queryKeys.purchaseOrders.all });
      }}
      fields={HEADER_FIELDS}
    >
      <SelectField label="Vendor" options={options} error={errors.vendor_id?.message} {...register('vendor_id')} />
      <TextField label="Expected date" type="date" error={errors.expected_date?.message} {...register('expected_date')} />
      <div className="form__grid">
        <TextField label="Shipping cost" inputMode="decimal" error={errors.shipping_cost?.message} {...register('shipping_cost')} />
        <TextField label="Tax" inputMode="decimal" error={errors.tax_amount?.message} {...register('tax_amount')} />
      </div>
      <TextAreaField label="Notes" error={errors.notes?.message} {...register('notes')} />
    </FormDialog>
  );
}

/** Adds a line to a draft (`line` null) or changes one: quantity, unit, unit cost, notes. */
export function PoLineDialog({ po, line, open, onClose }: { po: PurchaseOrder; line: PurchaseOrderLine | null; open: boolean; onClose: () => void }) {
  return open ? <LineForm key={line?.id ?? 'new'} po={po} line={line} onClose={onClose} /> : null;
}

function LineForm({ po, line, onClose }: { po: PurchaseOrder; line: PurchaseOrderLine | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const items = useQuery({ queryKey: queryKeys.purchasing.itemOptions(), queryFn: ({ signal }) => itemsApi.list({ limit: 500 }, signal), enabled: line === null });
  const form = useZodForm<PoLineValues, PoLineBody>(line ? lineUpdateSchema : lineCreateSchema, {
    defaultValues: line
      ? { product_id: String(line.product_id), quantity_ordered: plain(line.quantity_ordered), unit_cost: plain(line.unit_cost), purchase_unit: line.purchase_unit, notes: line.notes ?? '' }
      : { product_id: '', quantity_ordered: '1', unit_cost: '0', purchase_unit: '', notes: '' },
  });
  const {
    register,
    formState: { errors },
  } = form;
  const units = PURCHASE_UNITS.map((u) => ({ value: u, label: u || "Item's purchase unit" }));
  if (line && !PURCHASE_UNITS.includes(line.purchase_unit)) units.push({ value: line.purchase_unit, label: line.purchase_unit });
  const title = line ? `Edit line ${line.line_number} of ${po.po_number}` : `Add a line to ${po.po_number}`;
  return (
    <FormDialog
      form={form}
      open
      onClose={onClose}
      title={title}
      description={line ? `${line.product_sku} · ${line.product_name}` : 'Quantity and cost are in the purchase unit.'}
      id="po-line-form"
      label={title}
      submitLabel={line ? 'Save line' : 'Add line'}
      submit={(body) => (line ? purchasingApi.updateLine(po.id, line.id, body) : purchasingApi.addLine(po.id, body as Extract<PoLineBody, { product_id: number }>))}
      onSuccess={async (l) => {
        toast.success(line ? 'Line saved' : 'Line added', `Line ${l.line_number}: ${l.product_sku} on ${po.po_number}.`);
        await queryClient.invalidateQueries({ queryKey: queryKeys.purchaseOrders.all });
      }}
      fields={LINE_FIELDS}
    >
      {!line && (
        <SelectField
          label="Item"
          placeholder={items.isPending ? 'Loading items…' : 'Choose an item'}
          options={(items.data?.items ?? []).map((it) => ({ value: String(it.id), label: `${it.sku} · ${it.name}` }))}
          error={errors.product_id?.message}
          {...register('product_id')}
        />
      )}
      <div className="form__grid">
        <TextField label="Quantity" inputMode="decimal" error={errors.quantity_ordered?.message} {...register('quantity_ordered')} />
        <SelectField label="Unit" options={units} error={errors.purchase_unit?.message} {...register('purchase_unit')} />
      </div>
      <TextField label="Unit cost" inputMode="decimal" error={errors.unit_cost?.message} {...register('unit_cost')} />
      <TextAreaField label="Notes" error={errors.notes?.message} {...register('notes')} />
    </FormDialog>
  );
}
