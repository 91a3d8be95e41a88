import { useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { TextField } from '../../components/Field';
import { FormDialog, useZodForm } from '../../components/FormDialog';
import { useToast } from '../../components/Toast';
import { spoolApi, type Spool } from './spoolApi';
import { formatGrams, weightBar } from './spoolWeight';
import { queryKeys } from '../../api/queryKeys';

const schema = z.object({
  current_weight_g: z
    .string()
    .trim()
    .refine((v) => /^\d+(\.\d{1,3})?$/.test(v), 'Enter the weighed grams, 0 or more.'),
  reason: z.string().trim().min(1, 'Say why the weight changes (it is posted as a stock adjustment).'),
});

/** Corrects a spool's weight after weighing it; the server posts the difference as an adjustment. */
export function WeightDialog({ spool, onClose }: { spool: Spool | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const form = useZodForm(schema, { values: { current_weight_g: spool ? String(Number(spool.current_weight_kg)) : '', reason: '' } });
  const {
    register,
    formState: { errors },
  } = form;
  return (
    <FormDialog
      form={form}
      open={spool !== null}
      onClose={onClose}
      size="sm"
      title={`Correct the weight of ${spool?.spool_number ?? ''}`}
      description={spool ? `Now ${formatGrams(Number(spool.current_weight_kg))} of ${formatGrams(Number(spool.initial_weight_kg))}.` : undefined}
      id="spool-weight-form"
      label="Correct weight"
      submitLabel="Save weight"
      submit={(v) => spoolApi.update(spool!.id, v)}
      onSuccess={async (r) => {
        toast.success('Weight corrected', `${r.spool_number} now has ${weightBar(r).label}.`);
        await queryClient.invalidateQueries({ queryKey: queryKeys.spools.all });
      }}
      fields={['current_weight_g', 'reason']}
    >
      <TextField label="Weighed now (g)" required inputMode="decimal" error={errors.current_weight_g?.message} {...register('current_weight_g')} />
      <TextField label="Reason" required placeholder="Weighed on the scale" error={errors.reason?.message} {...register('reason')} />
    </FormDialog>
  );
}
