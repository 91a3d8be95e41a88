import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { itemsApi } from '../../api/endpoints';
import { ApiError, errorMessage } from '../../api/errors';
import type { Item, ItemInput } from '../../api/types';
import { Button } from '../../components/Button';
import { CheckboxField, FormError, SelectField, TextAreaField, TextField } from '../../components/Field';
import { Modal } from '../../components/Modal';
import { Skeleton } from '../../components/States';
import { useToast } from '../../components/Toast';
import { ITEM_TYPES, ITEM_TYPES_FOR_FORM, PROCUREMENT_TYPES, UNITS } from './itemOptions';

interface FormValues {
  sku: string;
  name: string;
  description: string;
  item_type: string;
  procurement_type: string;
  unit: string;
  standard_cost: string;
  average_cost: string;
  last_cost: string;
  selling_price: string;
  reorder_point: string;
  reorder_qty: string;
  lead_time_days: string;
  upc: string;
  is_active: boolean;
  has_bom: boolean;
}

const EMPTY: FormValues = {
  sku: '',
  name: '',
  description: '',
  item_type: 'finished_good',
  procurement_type: 'buy',
  unit: 'EA',
  standard_cost: '',
  average_cost: '',
  last_cost: '',
  selling_price: '',
  reorder_point: '',
  reorder_qty: '',
  lead_time_days: '',
  upc: '',
  is_active: true,
  has_bom: false,
};

const str = (v: unknown) => (v === null || v === undefined ? '' : String(v));

function fromItem(item: Item): FormValues {
  return {
    sku: item.sku,
    name: item.name,
    description: str(item.description),
    item_type: item.item_type,
    procurement_type: str(item.procurement_type),
    unit: item.unit || 'EA',
    standard_cost: str(item.standard_cost),
    average_cost: str(item.average_cost),
    last_cost: str(item.last_cost),
    selling_price: str(item.selling_price),
    reorder_point: str(item.reorder_point),
    reorder_qty: str(item.reorder_qty),
    lead_time_days: str(item.lead_time_days),
    upc: str(item.upc),
    is_active: item.active,
    has_bom: Boolean(item.has_bom),
  };
}

const DECIMALS = ['standard_cost', 'average_cost', 'last_cost', 'selling_price', 'reorder_point', 'reorder_qty'] as const;

export function validateItem(v: FormValues): Record<string, string> {
  const errs: Record<string, string> = {};
  if (!v.sku.trim()) errs.sku = 'Enter a SKU.';
  else if (v.sku.trim().length > 50) errs.sku = 'Use at most 50 characters.';
  if (!v.name.trim()) errs.name = 'Enter a name.';
  else if (v.name.trim().length > 255) errs.name = 'Use at most 255 characters.';
  if (!v.item_type) errs.item_type = 'Choose a type.';
  if (!v.unit) errs.unit = 'Choose a unit.';
  for (const k of DECIMALS) {
    const raw = v[k].trim();
    if (raw && !/^\d+(\.\d+)?$/.test(raw)) errs[k] = 'Enter a number of 0 or more, like 12.50.';
  }
  if (v.lead_time_days.trim() && !/^\d+$/.test(v.lead_time_days.trim())) errs.lead_time_days = 'Enter a whole number of days.';
  return errs;
}

function toInput(v: FormValues): ItemInput {
  const dec = (s: string) => (s.trim() ? s.trim() : null);
  return {
    sku: v.sku.trim().toUpperCase(),
    name: v.name.trim(),
    description: v.description.trim() || null,
    item_type: v.item_type,
    procurement_type: v.procurement_type || null,
    unit: v.unit,
    standard_cost: dec(v.standard_cost),
    average_cost: dec(v.average_cost),
    last_cost: dec(v.last_cost),
    selling_price: dec(v.selling_price),
    reorder_point: dec(v.reorder_point),
    reorder_qty: dec(v.reorder_qty),
    lead_time_days: v.lead_time_days.trim() ? Number.parseInt(v.lead_time_days, 10) : null,
    upc: v.upc.trim() || null,
    is_active: v.is_active,
    has_bom: v.has_bom,
  };
}

interface ItemFormModalProps {
  open: boolean;
  /** The item to edit, or null to create one. */
  itemId: number | null;
  onClose: () => void;
}

export function ItemFormModal({ open, itemId, onClose }: ItemFormModalProps) {
  const editing = itemId !== null;
  const detail = useQuery({
    queryKey: ['items', 'detail', itemId],
    queryFn: () => itemsApi.get(itemId!),
    enabled: open && editing,
    staleTime: 0,
  });
  return (
    <Modal
      open={open}
      onClose={onClose}
      size="lg"
      title={editing ? 'Edit item' : 'New item'}
      description={editing ? detail.data?.sku : 'Add a product, component, material or consumable.'}
    >
      {editing && detail.isPending ? (
        <div className="form" aria-busy="true">
          {Array.from({ length: 6 }, (_, i) => (
            <Skeleton key={i} height={34} />
          ))}
        </div>
      ) : editing && detail.error ? (
        <FormError message={errorMessage(detail.error)} title="The item could not be loaded." />
      ) : (
        <ItemForm key={itemId ?? 'new'} item={editing ? (detail.data ?? null) : null} onClose={onClose} />
      )}
    </Modal>
  );
}

function ItemForm({ item, onClose }: { item: Item | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const [values, setValues] = useState<FormValues>(() => (item ? fromItem(item) : EMPTY));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);

  const save = useMutation({
    mutationFn: (input: ItemInput) => (item ? itemsApi.update(item.id, input) : itemsApi.create(input)),
    onSuccess: async (saved) => {
      await queryClient.invalidateQueries({ queryKey: ['items'] });
      toast.success(item ? 'Item saved' : 'Item created', `${saved?.sku ?? values.sku} · ${saved?.name ?? values.name}`);
      onClose();
    },
    onError: (err) => {
      if (err instanceof ApiError) {
        const fe = { ...err.fieldErrors };
        if (/sku/i.test(err.message) && !fe.sku && (err.status === 400 || err.status === 409)) fe.sku = err.message;
        setErrors(fe);
        setFormError(Object.keys(fe).length ? 'Please correct the highlighted fields.' : err.message);
      } else setFormError(errorMessage(err));
    },
  });

  const set =
    <K extends keyof FormValues>(k: K) =>
    (e: { target: { value: string; checked?: boolean; type?: string } }) => {
      const value = (e.target.type === 'checkbox' ? e.target.checked : e.target.value) as FormValues[K];
      setValues((v) => ({ ...v, [k]: value }));
      if (errors[k]) setErrors((prev) => ({ ...prev, [k]: '' }));
    };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const errs = validateItem(values);
    setErrors(errs);
    setFormError(null);
    if (Object.keys(errs).length) {
      document.querySelector<HTMLElement>(`.modal [name="${Object.keys(errs)[0]}"]`)?.focus();
      return;
    }
    save.mutate(toInput(values));
  };

  const typeOptions = ITEM_TYPES_FOR_FORM.some((t) => t.value === values.item_type)
    ? ITEM_TYPES_FOR_FORM
    : [...ITEM_TYPES_FOR_FORM, ...ITEM_TYPES.filter((t) => t.value === values.item_type)];

  return (
    <form className="form" onSubmit={onSubmit} noValidate aria-label={item ? 'Edit item' : 'New item'}>
      <FormError message={formError} />
      <div className="form__grid">
        <TextField label="SKU" name="sku" value={values.sku} onChange={set('sku')} error={errors.sku} required maxLength={50} autoComplete="off" className="field--mono" />
        <TextField label="Name" name="name" value={values.name} onChange={set('name')} error={errors.name} required maxLength={255} autoComplete="off" />
      </div>
      <TextAreaField label="Description" name="description" value={values.description} onChange={set('description')} error={errors.description} />
      <div className="form__grid form__grid--3">
        <SelectField label="Type" name="item_type" value={values.item_type} onChange={set('item_type')} options={typeOptions} error={errors.item_type} required />
        <SelectField label="Procurement" name="procurement_type" value={values.procurement_type} onChange={set('procurement_type')} options={PROCUREMENT_TYPES} placeholder="Not set" error={errors.procurement_type} />
        <SelectField label="Unit" name="unit" value={values.unit} onChange={set('unit')} options={UNITS} error={errors.unit} required />
      </div>
      <fieldset className="fieldset">
        <legend>Costs and price</legend>
        <div className="form__grid form__grid--4">
          <TextField label="Standard cost" name="standard_cost" inputMode="decimal" value={values.standard_cost} onChange={set('standard_cost')} error={errors.standard_cost} />
          <TextField label="Average cost" name="average_cost" inputMode="decimal" value={values.average_cost} onChange={set('average_cost')} error={errors.average_cost} />
          <TextField label="Last cost" name="last_cost" inputMode="decimal" value={values.last_cost} onChange={set('last_cost')} error={errors.last_cost} />
          <TextField label="Selling price" name="selling_price" inputMode="decimal" value={values.selling_price} onChange={set('selling_price')} error={errors.selling_price} />
        </div>
      </fieldset>
      <fieldset className="fieldset">
        <legend>Replenishment</legend>
        <div className="form__grid form__grid--3">
          <TextField label="Reorder point" name="reorder_point" inputMode="decimal" value={values.reorder_point} onChange={set('reorder_point')} error={errors.reorder_point} />
          <TextField label="Reorder quantity" name="reorder_qty" inputMode="decimal" value={values.reorder_qty} onChange={set('reorder_qty')} error={errors.reorder_qty} />
          <TextField label="Lead time (days)" name="lead_time_days" inputMode="numeric" value={values.lead_time_days} onChange={set('lead_time_days')} error={errors.lead_time_days} />
        </div>
      </fieldset>
      <div className="form__grid">
        <TextField label="UPC / barcode" name="upc" value={values.upc} onChange={set('upc')} error={errors.upc} autoComplete="off" />
        <div className="form__checks">
          <CheckboxField label="Active" name="is_active" checked={values.is_active} onChange={set('is_active')} hint="Inactive items are hidden from lists and can’t be ordered." />
          <CheckboxField label="Has a bill of materials" name="has_bom" checked={values.has_bom} onChange={set('has_bom')} />
        </div>
      </div>
      <div className="modal__footer modal__footer--inline">
        <Button variant="secondary" onClick={onClose} disabled={save.isPending}>
          Cancel
        </Button>
        <Button type="submit" variant="primary" loading={save.isPending}>
          {item ? 'Save changes' : 'Create item'}
        </Button>
      </div>
    </form>
  );
}
