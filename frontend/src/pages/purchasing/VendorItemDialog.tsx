import { useQuery, useQueryClient } from '@tanstack/react-query';
import { itemsApi } from '../../api/endpoints';
import { CheckboxField, SelectField, TextField } from '../../components/Field';
import { FormDialog, useZodForm } from '../../components/FormDialog';
import { useToast } from '../../components/Toast';
import {
  PURCHASE_UNITS,
  VENDOR_ITEM_FIELDS,
  purchasingApi,
  vendorItemCreateSchema,
  vendorItemFormValues,
  vendorItemUpdateSchema,
  type VendorDetail,
  type VendorItem,
  type VendorItemBody,
  type VendorItemCreate,
  type VendorItemValues,
} from './purchasingApi';
import { queryKeys } from '../../api/queryKeys';

interface VendorItemDialogProps {
  vendor: VendorDetail;
  /** The entry to change, or null to add an item. */
  entry: VendorItem | null;
  /** Items already on the list (not offered again when adding). */
  listed: readonly number[];
  open: boolean;
  onClose: () => void;
}

/** Adds an item to a vendor's price list or changes its entry: vendor SKU, price, unit, lead time, preferred. */
export function VendorItemDialog({ open, ...props }: VendorItemDialogProps) {
  return open ? <VendorItemForm key={props.entry?.item_id ?? 'new'} {...props} /> : null;
}

function VendorItemForm({ vendor, entry, listed, onClose }: Omit<VendorItemDialogProps, 'open'>) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const items = useQuery({ queryKey: queryKeys.purchasing.itemOptions(), queryFn: ({ signal }) => itemsApi.list({ limit: 500 }, signal), enabled: entry === null });
  const form = useZodForm<VendorItemValues, VendorItemBody>(entry ? vendorItemUpdateSchema(entry) : vendorItemCreateSchema, {
    defaultValues: vendorItemFormValues(entry),
  });
  const {
    register,
    formState: { errors },
  } = form;
  const units = PURCHASE_UNITS.filter((u) => u !== '' || !entry?.purchase_unit).map((u) => ({ value: u, label: u || "Item's purchase unit" }));
  if (entry?.purchase_unit && !PURCHASE_UNITS.includes(entry.purchase_unit)) units.push({ value: entry.purchase_unit, label: entry.purchase_unit });
  const title = entry ? `Edit ${entry.item_sku ?? 'item'} on the price list` : 'Add to the price list';
  const choices = (items.data?.items ?? []).filter((it) => !listed.includes(it.id)).map((it) => ({ value: String(it.id), label: `${it.sku} · ${it.name}` }));
  return (
    <FormDialog
      form={form}
      open
      onClose={onClose}
      title={title}
      description={entry ? `${entry.item_name ?? ''} · ${vendor.code} · ${vendor.name}` : `${vendor.code} · ${vendor.name}: the price is per purchase unit.`}
      id="vendor-item-form"
      label={title}
      submitLabel={entry ? 'Save price' : 'Add item'}
      lockWhilePending
      submit={(body) => (entry ? purchasingApi.updateVendorItem(vendor.id, entry.item_id, body) : purchasingApi.addVendorItem(vendor.id, body as VendorItemCreate))}
      onSuccess={async (saved) => {
        toast.success(entry ? 'Price saved' : 'Item added', `${saved.item_sku ?? 'The item'} on ${vendor.name}'s price list.`);
        // A preferred mark moves off the item's other vendors too.
        await queryClient.invalidateQueries({ queryKey: queryKeys.purchasing.all });
      }}
      fields={VENDOR_ITEM_FIELDS}
    >
      {!entry && (
        <SelectField
          label="Item"
          required
          placeholder={items.isPending ? 'Loading items…' : items.isError ? 'The items could not be loaded' : 'Choose an item'}
          options={choices}
          error={errors.product_id?.message}
          {...register('product_id')}
        />
      )}
      <div className="form__grid">
        <TextField label="Vendor SKU" autoComplete="off" error={errors.vendor_sku?.message} {...register('vendor_sku')} />
        <TextField label="Price" inputMode="decimal" error={errors.unit_cost?.message} {...register('unit_cost')} />
      </div>
      <div className="form__grid">
        <SelectField label="Unit" options={units} error={errors.purchase_unit?.message} {...register('purchase_unit')} />
        <TextField label="Lead time (days)" inputMode="numeric" error={errors.lead_time_days?.message} {...register('lead_time_days')} />
      </div>
      <CheckboxField
        label="Preferred vendor for this item"
        hint="Low-stock reorders buy the item here; the mark moves off any other vendor."
        {...register('is_preferred')}
      />
    </FormDialog>
  );
}
