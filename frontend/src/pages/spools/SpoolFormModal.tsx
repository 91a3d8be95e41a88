import { useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { itemsApi, locationsApi } from '../../api/endpoints';
import { SelectField, TextAreaField, TextField } from '../../components/Field';
import { FormDialog, useZodForm } from '../../components/FormDialog';
import { useToast } from '../../components/Toast';
import { spoolApi, type SpoolCreateQuery } from './spoolApi';
import { queryKeys } from '../../api/queryKeys';

const GRAMS = /^\d+(\.\d{1,3})?$/;
const text = z
  .string()
  .trim()
  .transform((v) => v || null);

export const spoolFormSchema = z
  .object({
    spool_number: z.string().trim().min(1, 'Enter the spool number, e.g. SP-0001.'),
    product_id: z.string().min(1, 'Choose the material.'),
    initial_weight_kg: z
      .string()
      .trim()
      .refine((v) => GRAMS.test(v) && Number(v) > 0, 'Enter the initial weight in grams, more than 0.'),
    current_weight_kg: z
      .string()
      .trim()
      .refine((v) => v === '' || GRAMS.test(v), 'Enter grams, 0 or more.'),
    location_id: z.string(),
    supplier_lot_number: text,
    expiry_date: text,
    notes: text,
  })
  .superRefine((v, ctx) => {
    if (v.current_weight_kg !== '' && Number(v.current_weight_kg) > Number(v.initial_weight_kg))
      ctx.addIssue({ code: 'custom', path: ['current_weight_kg'], message: 'The current weight cannot exceed the initial weight.' });
  })
  .transform(
    (v) =>
      ({
        spool_number: v.spool_number,
        product_id: Number(v.product_id),
        initial_weight_kg: v.initial_weight_kg,
        current_weight_kg: v.current_weight_kg || null,
        location_id: v.location_id ? Number(v.location_id) : null,
        supplier_lot_number: v.supplier_lot_number,
        expiry_date: v.expiry_date,
        notes: v.notes,
      }) satisfies SpoolCreateQuery,
  );

const FIELDS = ['spool_number', 'product_id', 'initial_weight_kg', 'current_weight_kg', 'location_id', 'supplier_lot_number', 'expiry_date', 'notes'] as const;

export function SpoolFormModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const materials = useQuery({
    queryKey: queryKeys.items.spoolMaterials(),
    queryFn: ({ signal }) => itemsApi.list({ limit: 100, offset: 0, item_type: 'material', sort_by: 'sku', sort_order: 'asc' }, signal),
    enabled: open,
  });
  const locations = useQuery({ queryKey: queryKeys.locations.spoolPicker(), queryFn: ({ signal }) => locationsApi.list({ limit: 200 }, signal), enabled: open });
  const form = useZodForm(spoolFormSchema, {
    defaultValues: { spool_number: '', product_id: '', initial_weight_kg: '1000', current_weight_kg: '', location_id: '', supplier_lot_number: '', expiry_date: '', notes: '' },
  });
  const {
    register,
    formState: { errors },
  } = form;
  return (
    <FormDialog
      form={form}
      open={open}
      onClose={onClose}
      title="New spool"
      description="A roll of material; its weight is in grams."
      id="spool-form"
      label="New spool"
      submitLabel="Create spool"
      submit={(q) => spoolApi.create(q)}
      onSuccess={async (r) => {
        toast.success('Spool created', `${r.spool_number} is in stock.`);
        await queryClient.invalidateQueries({ queryKey: queryKeys.spools.all });
      }}
      fields={FIELDS}
    >
      <div className="form__grid">
        <TextField label="Spool number" required placeholder="SP-0001" error={errors.spool_number?.message} {...register('spool_number')} />
        <SelectField
          label="Material"
          required
          placeholder={materials.isPending ? 'Loading…' : 'Choose a material'}
          options={(materials.data?.items ?? []).map((i) => ({ value: String(i.id), label: `${i.sku} · ${i.name}` }))}
          error={errors.product_id?.message}
          {...register('product_id')}
        />
        <TextField label="Initial weight (g)" required inputMode="decimal" error={errors.initial_weight_kg?.message} {...register('initial_weight_kg')} />
        <TextField label="Current weight (g)" inputMode="decimal" hint="Leave empty for a full spool." error={errors.current_weight_kg?.message} {...register('current_weight_kg')} />
        <SelectField
          label="Location"
          placeholder="Main warehouse"
          options={(locations.data ?? []).map((l) => ({ value: String(l.id), label: `${l.code} · ${l.name}` }))}
          error={errors.location_id?.message}
          {...register('location_id')}
        />
        <TextField label="Supplier lot" error={errors.supplier_lot_number?.message} {...register('supplier_lot_number')} />
        <TextField label="Expiry date" type="date" error={errors.expiry_date?.message} {...register('expiry_date')} />
      </div>
      <TextAreaField label="Notes" error={errors.notes?.message} {...register('notes')} />
    </FormDialog>
  );
}
