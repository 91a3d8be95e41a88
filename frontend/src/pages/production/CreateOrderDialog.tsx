import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { itemsApi } from '../../api/endpoints';
import { Button } from '../../components/Button';
import { FormError, SelectField, TextAreaField, TextField } from '../../components/Field';
import { Modal } from '../../components/Modal';
import { useToast } from '../../components/Toast';
import { applyServerErrors } from '../../lib/forms';
import { createOrderBody, createOrderSchema, productionApi, type CreateOrderForm } from './productionApi';

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
  const [formError, setFormError] = useState<string | null>(null);
  const products = useQuery({
    queryKey: ['production', 'product-options'],
    queryFn: ({ signal }) => itemsApi.list({ limit: 500, active_only: true, sort_by: 'sku' }, signal),
    enabled: open,
  });
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm<CreateOrderForm>({ resolver: zodResolver(createOrderSchema), defaultValues: EMPTY });
  const close = () => {
    reset(EMPTY);
    setFormError(null);
    onClose();
  };
  const save = useMutation({
    mutationFn: (v: CreateOrderForm) => productionApi.create(createOrderBody(v)),
    onSuccess: async (o) => {
      toast.success('Production order created', `${o.code} is a draft; release it when the material is ready.`);
      await queryClient.invalidateQueries({ queryKey: ['production'] });
      close();
      onCreated(o.id);
    },
    onError: (err) => setFormError(applyServerErrors(err, setError, ['product_id', 'quantity_ordered', 'due_date', 'priority', 'notes'])),
  });
  const options = (products.data?.items ?? [])
    .filter((i) => i.item_type !== 'service')
    .map((i) => ({ value: String(i.id), label: `${i.sku} · ${i.name}` }));
  return (
    <Modal
      open={open}
      onClose={close}
      title="New production order"
      description="It starts as a draft with the product's active BOM and routing."
      footer={
        <>
          <Button variant="secondary" onClick={close}>
            Cancel
          </Button>
          <Button variant="primary" type="submit" form="production-create-form" loading={save.isPending}>
            Create draft
          </Button>
        </>
      }
    >
      <form
        id="production-create-form"
        className="form"
        aria-label="New production order"
        noValidate
        onSubmit={handleSubmit((v) => {
          setFormError(null);
          save.mutate(v);
        })}
      >
        <FormError message={formError} />
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
      </form>
    </Modal>
  );
}
