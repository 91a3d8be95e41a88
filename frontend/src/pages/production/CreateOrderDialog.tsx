import { useQuery, useQueryClient } from '@tanstack/react-query';
import { itemsApi } from '../../api/endpoints';
import { SelectField, TextAreaField, TextField } from '../../components/Field';
import { FormDialog, useZodForm } from '../../components/FormDialog';
import { useToast } from '../../components/Toast';
import { createOrderBody, createOrderSchema, productionApi, type CreateOrderForm } from './productionApi';
import { queryKeys } from '../../api/queryKeys';

const EMPTY: CreateOrderForm = { product_id: '', quantity_ordered: '1', due_date: '', priority: '3', notes: '' };
const PRIORITIES = [
  { value: '1', label: '1 · highest' },
  { value: '2', label: '2' },
  { value: '3', label: '3 · normal' },
  { value: '4', label: '4' },
  { value: '5', label: '5 · lowest' },
];

/** A manual draft order `WO-YYYY-NNNN` for a product (its active BOM and routing). */
export function CreateOrderDialog({ open, onClose, onCreated }: { open: boolean; onClose: () => void; onCreated: (id: number) => void }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const products = useQuery({
    queryKey: queryKeys.production.productOptions(),
    queryFn: ({ signal }) => itemsApi.list({ limit: 500, active_only: true, sort_by: 'sku' }, signal),
    enabled: open,
  });
  const form = useZodForm(createOrderSchema, { defaultValues: EMPTY });
  const {
    register,
    formState: { errors },
  } = form;
  const options = (products.data?.items ?? [])
    .filter((i) => i.item_type !== 'service')
    .map((i) => ({ value: String(i.id), label: `${i.sku} · ${i.name}` }));
  return (
    <FormDialog
      form={form}
      open={open}
      onClose={onClose}
      title="New production order"
      description="It starts as a draft with the product's active BOM and routing."
      id="production-create-form"
      label="New production order"
      submitLabel="Create draft"
      submit={(v) => productionApi.create(createOrderBody(v))}
      onSuccess={async (o) => {
        toast.success('Production order created', `${o.code} is a draft; release it when the material is ready.`);
        await queryClient.invalidateQueries({ queryKey: queryKeys.production.all });
        onCreated(o.id);
      }}
      fields={['product_id', 'quantity_ordered', 'due_date', 'priority', 'notes']}
    >
      <SelectField
        label="Product"
        required
        placeholder={products.isPending ? 'Loading products…' : 'Choose a product'}
        options={options}
        error={errors.product_id?.message}
        {...register('product_id')}
      />
      <div className="form__grid form__grid--3">
        <TextField label="Quantity" required inputMode="decimal" error={errors.quantity_ordered?.message} {...register('quantity_ordered')} />
        <TextField label="Due date" type="date" error={errors.due_date?.message} {...register('due_date')} />
        <SelectField label="Priority" options={PRIORITIES} error={errors.priority?.message} {...register('priority')} />
      </div>
      <TextAreaField label="Notes" error={errors.notes?.message} {...register('notes')} />
    </FormDialog>
  );
}
