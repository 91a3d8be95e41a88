import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { Button } from '../../components/Button';
import { FormError, TextField } from '../../components/Field';
import { Modal } from '../../components/Modal';
import { useToast } from '../../components/Toast';
import { applyServerErrors } from '../../lib/forms';
import { spoolApi, type Spool } from './spoolApi';
import { formatGrams, weightBar } from './spoolWeight';

const schema = z.object({
  current_weight_g: z
    .string()
    .trim()
    .refine((v) => /^\d+(\.\d{1,3})?$/.test(v), 'Enter the weighed grams, 0 or more.'),
  reason: z.string().trim().min(1, 'Say why the weight changes (it is posted as a stock adjustment).'),
});
type FormIn = z.input<typeof schema>;

/** Corrects a spool's weight after weighing it; the server posts the difference as an adjustment. */
export function WeightDialog({ spool, onClose }: { spool: Spool | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const [formError, setFormError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm<FormIn>({ resolver: zodResolver(schema), values: { current_weight_g: spool ? String(Number(spool.current_weight_kg)) : '', reason: '' } });
  const close = () => {
    reset();
    setFormError(null);
    onClose();
  };
  const save = useMutation({
    mutationFn: (v: FormIn) => spoolApi.update(spool!.id, v),
    onSuccess: async (r) => {
      toast.success('Weight corrected', `${r.spool_number} now has ${weightBar(r).label}.`);
      await queryClient.invalidateQueries({ queryKey: ['spools'] });
      close();
    },
    onError: (err) => setFormError(applyServerErrors(err, setError, ['current_weight_g', 'reason'])),
  });
  return (
    <Modal
      open={spool !== null}
      onClose={close}
      size="sm"
      title={`Correct the weight of ${spool?.spool_number ?? ''}`}
      description={spool ? `Now ${formatGrams(Number(spool.current_weight_kg))} of ${formatGrams(Number(spool.initial_weight_kg))}.` : undefined}
      footer={
        <>
          <Button variant="secondary" onClick={close}>
            Cancel
          </Button>
          <Button variant="primary" type="submit" form="spool-weight-form" loading={save.isPending}>
            Save weight
          </Button>
        </>
      }
    >
      <form
        id="spool-weight-form"
        className="form"
        aria-label="Correct weight"
        noValidate
        onSubmit={handleSubmit((v) => {
          setFormError(null);
          save.mutate(v);
        })}
      >
        <FormError message={formError} />
        <TextField label="Weighed now (g)" required inputMode="decimal" error={errors.current_weight_g?.message} {...register('current_weight_g')} />
        <TextField label="Reason" required placeholder="Weighed on the scale" error={errors.reason?.message} {...register('reason')} />
      </form>
    </Modal>
  );
}
