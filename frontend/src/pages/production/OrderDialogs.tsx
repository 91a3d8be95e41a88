import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { zodResolver } from '@hookform/resolvers/zod';
import { useFieldArray, useForm, useWatch } from 'react-hook-form';
import { scrapReasonsApi } from '../../api/endpoints';
import { ApiError, errorMessage } from '../../api/errors';
import { Button } from '../../components/Button';
import { CheckboxField, FormError, SelectField, TextAreaField, TextField } from '../../components/Field';
import { Modal } from '../../components/Modal';
import { useToast } from '../../components/Toast';
import { Plus, Trash2 } from 'lucide-react';
import { applyServerErrors } from '../../lib/forms';
import { isoToLocalInput } from '../../lib/localTime';
import { formatQty } from '../../lib/format';
import { spoolApi } from '../spools/spoolApi';
import { formatGrams } from '../spools/spoolWeight';
import {
  completeBody,
  completeSchema,
  consumeSchema,
  productionApi,
  QC_RESULT_LABEL,
  qcChoices,
  qcSchema,
  scheduleSchema,
  scrapSchema,
  splitSchema,
  type CompleteForm,
  type ConsumeForm,
  type ProductionOrder,
  type QcForm,
  type ScheduleForm,
  type ScrapForm,
  type SplitForm,
} from './productionApi';

interface DialogProps {
  order: ProductionOrder;
  open: boolean;
  onClose: () => void;
}

function useScrapReasons(open: boolean) {
  return useQuery({ queryKey: ['production', 'scrap-reasons'], queryFn: ({ signal }) => scrapReasonsApi.list({}, signal), enabled: open, staleTime: 300_000 });
}

function useDone(onClose: () => void) {
  const queryClient = useQueryClient();
  return async () => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: ['production'] }),
      // Completing and QC move the sales order the production order is for (ready to ship).
      queryClient.invalidateQueries({ queryKey: ['sales'] }),
      queryClient.invalidateQueries({ queryKey: ['printers'] }),
      queryClient.invalidateQueries({ queryKey: ['command-center'] }),
      queryClient.invalidateQueries({ queryKey: ['spools'] }),
    ]);
    onClose();
  };
}

/** Filament from a named spool (of one of the order's materials, when it has any), in grams. */
export function ConsumeSpoolDialog({ order, open, onClose }: DialogProps) {
  const toast = useToast();
  const done = useDone(onClose);
  const [formError, setFormError] = useState<string | null>(null);
  const [idemKey, setIdemKey] = useState(productionApi.newKey);
  const spools = useQuery({ queryKey: ['production', 'spool-options'], queryFn: ({ signal }) => spoolApi.list({ status: 'active', limit: 500 }, signal), enabled: open });
  const materialIds = new Set(order.materials.map((m) => m.component_id));
  const all = spools.data?.items ?? [];
  const matching = all.filter((s) => materialIds.has(s.product_id));
  const choices = matching.length > 0 ? matching : all;
  const {
    register,
    handleSubmit,
    reset,
    setError,
    control,
    formState: { errors },
  } = useForm<ConsumeForm>({ resolver: zodResolver(consumeSchema(all)), defaultValues: { spool_id: '', weight_consumed_g: '' } });
  const spoolId = useWatch({ control, name: 'spool_id' });
  const chosen = all.find((s) => String(s.id) === spoolId);
  // The spool list is for administrators (spec 4.5): an operator types the spool's id from its label.
  const forbidden = spools.error instanceof ApiError && spools.error.status === 403;
  const close = () => {
    reset();
    setFormError(null);
    setIdemKey(productionApi.newKey());
    onClose();
  };
  const save = useMutation({
    mutationFn: (v: ConsumeForm) => productionApi.consumeSpool(order.id, Number(v.spool_id), v.weight_consumed_g.trim(), idemKey),
    onSuccess: async (_o, v) => {
      toast.success('Filament consumed', `${v.weight_consumed_g} g from ${chosen?.spool_number ?? 'the spool'} went into ${order.code}.`);
      reset();
      setIdemKey(productionApi.newKey());
      await done();
    },
    onError: (err) => setFormError(applyServerErrors(err, setError, ['spool_id', 'weight_consumed_g'])),
  });
  return (
    <Modal
      open={open}
      onClose={close}
      size="sm"
      title="Consume from a spool"
      description="The grams come off the spool and are issued to the order (WIP)."
      footer={
        <>
          <Button variant="secondary" onClick={close}>
            Cancel
          </Button>
          <Button variant="primary" type="submit" form="consume-spool-form" loading={save.isPending}>
            Consume
          </Button>
        </>
      }
    >
      <form id="consume-spool-form" className="form" aria-label="Consume from a spool" noValidate onSubmit={handleSubmit((v) => save.mutate(v))}>
        <FormError message={formError} />
        {forbidden ? (
          <TextField label="Spool ID" required inputMode="numeric" hint="Only administrators can list spools: ask one for the spool's id." error={errors.spool_id?.message} {...register('spool_id')} />
        ) : (
          <SelectField
            label="Spool"
            required
            placeholder={spools.isPending ? 'Loading spools…' : choices.length ? 'Choose a spool' : 'No active spools'}
            options={choices.map((s) => ({
              value: String(s.id),
              label: `${s.spool_number} · ${s.product_sku ?? ''} · ${formatGrams(Number(s.current_weight_kg))} left`,
            }))}
            hint={matching.length === 0 && all.length > 0 ? 'No spool holds one of this order’s materials; every active spool is listed.' : undefined}
            error={errors.spool_id?.message}
            {...register('spool_id')}
          />
        )}
        <TextField
          label="Grams used"
          required
          inputMode="decimal"
          hint={chosen ? `${formatGrams(Number(chosen.current_weight_kg))} on this spool.` : undefined}
          error={errors.weight_consumed_g?.message}
          {...register('weight_consumed_g')}
        />
      </form>
    </Modal>
  );
}

/** Completion: good and scrapped quantities (the finished goods go to stock at actual cost). */
export function CompleteDialog({ order, open, onClose }: DialogProps) {
  const toast = useToast();
  const done = useDone(onClose);
  const reasons = useScrapReasons(open);
  const [formError, setFormError] = useState<string | null>(null);
  const [idemKey, setIdemKey] = useState(productionApi.newKey);
  const ordered = Number(order.quantity_ordered);
  const defaults: CompleteForm = { quantity_completed: String(order.quantity_remaining), quantity_scrapped: '0', scrap_reason: '', force_close_short: false, notes: '' };
  const {
    register,
    handleSubmit,
    reset,
    setError,
    control,
    formState: { errors },
  } = useForm<CompleteForm>({ resolver: zodResolver(completeSchema(ordered, order.status === 'short')), defaultValues: defaults });
  const close = () => {
    reset(defaults);
    setFormError(null);
    setIdemKey(productionApi.newKey());
    onClose();
  };
  const save = useMutation({
    mutationFn: (v: CompleteForm) => productionApi.complete(order.id, completeBody(v), idemKey),
    onSuccess: async (o) => {
      toast.success('Order completed', `${o.code}: ${formatQty(o.quantity_completed)} good, ${formatQty(o.quantity_scrapped)} scrapped.`);
      setIdemKey(productionApi.newKey());
      await done();
    },
    onError: (err) =>
      setFormError(applyServerErrors(err, setError, ['quantity_completed', 'quantity_scrapped', 'scrap_reason', 'force_close_short', 'notes'])),
  });
  const scrapped = Number(useWatch({ control, name: 'quantity_scrapped' }) || 0) > 0;
  return (
    <Modal
      open={open}
      onClose={close}
      title={`Complete ${order.code}`}
      description={`Ordered ${formatQty(order.quantity_ordered)}. Good units go to finished goods; scrapped ones are written off at WIP cost.`}
      footer={
        <>
          <Button variant="secondary" onClick={close}>
            Cancel
          </Button>
          <Button variant="primary" type="submit" form="complete-form" loading={save.isPending}>
            Complete order
          </Button>
        </>
      }
    >
      <form id="complete-form" className="form" aria-label="Complete order" noValidate onSubmit={handleSubmit((v) => save.mutate(v))}>
        <FormError message={formError} />
        <div className="form__grid">
          <TextField label="Quantity completed" required inputMode="decimal" error={errors.quantity_completed?.message} {...register('quantity_completed')} />
          <TextField label="Quantity scrapped" inputMode="decimal" error={errors.quantity_scrapped?.message} {...register('quantity_scrapped')} />
        </div>
        {scrapped && (
          <SelectField
            label="Scrap reason"
            required
            placeholder="Choose a reason"
            options={(reasons.data?.details ?? []).map((r) => ({ value: r.code, label: r.name }))}
            error={errors.scrap_reason?.message}
            {...register('scrap_reason')}
          />
        )}
        {order.status !== 'short' && (
          <CheckboxField label="Close short" hint="Finish the order even though fewer than ordered were made." {...register('force_close_short')} />
        )}
        {errors.force_close_short?.message && (
          <p className="field__error" role="alert">
            {errors.force_close_short.message}
          </p>
        )}
        <TextAreaField label="Notes" error={errors.notes?.message} {...register('notes')} />
      </form>
    </Modal>
  );
}

/** Scrapping a released or running order (at WIP cost), with an optional remake order. */
export function ScrapDialog({ order, open, onClose }: DialogProps) {
  const toast = useToast();
  const done = useDone(onClose);
  const reasons = useScrapReasons(open);
  const [formError, setFormError] = useState<string | null>(null);
  const [idemKey, setIdemKey] = useState(productionApi.newKey);
  const remaining = Number(order.quantity_remaining);
  const defaults: ScrapForm = { scrap_reason: '', quantity_scrapped: String(remaining), notes: '', create_remake: true };
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm<ScrapForm>({ resolver: zodResolver(scrapSchema(remaining)), defaultValues: defaults });
  const close = () => {
    reset(defaults);
    setFormError(null);
    setIdemKey(productionApi.newKey());
    onClose();
  };
  const save = useMutation({
    mutationFn: (v: ScrapForm) => productionApi.scrap(order.id, v, idemKey),
    onSuccess: async () => {
      toast.success('Scrapped', `${order.code} was scrapped.`);
      setIdemKey(productionApi.newKey());
      await done();
    },
    onError: (err) => setFormError(applyServerErrors(err, setError, ['scrap_reason', 'quantity_scrapped', 'notes'])),
  });
  return (
    <Modal
      open={open}
      onClose={close}
      size="sm"
      title={`Scrap ${order.code}`}
      description="The work in progress is written off to scrap expense. This cannot be undone."
      footer={
        <>
          <Button variant="secondary" onClick={close}>
            Cancel
          </Button>
          <Button variant="danger" type="submit" form="scrap-form" loading={save.isPending}>
            Scrap
          </Button>
        </>
      }
    >
      <form id="scrap-form" className="form" aria-label="Scrap order" noValidate onSubmit={handleSubmit((v) => save.mutate(v))}>
        <FormError message={formError} />
        <SelectField
          label="Scrap reason"
          required
          placeholder={reasons.isPending ? 'Loading reasons…' : 'Choose a reason'}
          options={(reasons.data?.details ?? []).map((r) => ({ value: r.code, label: r.name }))}
          error={errors.scrap_reason?.message}
          {...register('scrap_reason')}
        />
        <TextField label="Quantity scrapped" required inputMode="decimal" error={errors.quantity_scrapped?.message} {...register('quantity_scrapped')} />
        <TextAreaField label="Notes" error={errors.notes?.message} {...register('notes')} />
        <CheckboxField label="Create a remake order" hint="A new draft order for the scrapped quantity." {...register('create_remake')} />
      </form>
    </Modal>
  );
}

/** The quality check of a complete order: passed or failed, waived with a reason while pending, or sent back for inspection after a failure. */
export function QcDialog({ order, open, onClose }: DialogProps) {
  const toast = useToast();
  const done = useDone(onClose);
  const [formError, setFormError] = useState<string | null>(null);
  const choices = qcChoices(order.qc_status);
  const defaults: QcForm = { result: 'passed', notes: '' };
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm<QcForm>({ resolver: zodResolver(qcSchema), defaultValues: defaults });
  const close = () => {
    reset(defaults);
    setFormError(null);
    onClose();
  };
  const save = useMutation({
    mutationFn: (v: QcForm) => productionApi.qc(order.id, v),
    onSuccess: async (_r, v) => {
      const said = { passed: 'passed its quality check', failed: 'failed its quality check', waived: 'has its quality check waived', pending: 'goes back for inspection' }[v.result];
      toast.success('QC recorded', `${order.code} ${said}.`);
      await done();
    },
    onError: (err) => setFormError(applyServerErrors(err, setError, ['result', 'notes'])),
  });
  return (
    <Modal
      open={open}
      onClose={close}
      size="sm"
      title={`Quality check of ${order.code}`}
      description={order.qc_status === 'failed' ? 'It failed its last inspection: record a re-inspection, or send it back to be inspected again.' : undefined}
      footer={
        <>
          <Button variant="secondary" onClick={close}>
            Cancel
          </Button>
          <Button variant="primary" type="submit" form="qc-form" loading={save.isPending}>
            Record result
          </Button>
        </>
      }
    >
      <form id="qc-form" className="form" aria-label="Quality check" noValidate onSubmit={handleSubmit((v) => save.mutate(v))}>
        <FormError message={formError} />
        <fieldset className="fieldset">
          <legend>Result</legend>
          <div className="form__row">
            {choices.map((c) => (
              <label key={c} className="checkbox">
                <input type="radio" value={c} {...register('result')} /> {QC_RESULT_LABEL[c]}
              </label>
            ))}
          </div>
          {errors.result?.message && <p className="field__error">{errors.result.message}</p>}
        </fieldset>
        <TextAreaField label="Notes" hint="Required when it failed or is waived." error={errors.notes?.message} {...register('notes')} />
      </form>
    </Modal>
  );
}

/** Splits a released order into two or more orders whose quantities add up to it (e.g. to run them on several printers). */
export function SplitDialog({ order, open, onClose }: DialogProps) {
  const toast = useToast();
  const done = useDone(onClose);
  const [formError, setFormError] = useState<string | null>(null);
  const [idemKey, setIdemKey] = useState(productionApi.newKey);
  const ordered = Number(order.quantity_ordered);
  const half = Math.floor(ordered / 2);
  const defaults: SplitForm = { parts: half > 0 && half < ordered ? [{ quantity: String(ordered - half) }, { quantity: String(half) }] : [{ quantity: '' }, { quantity: '' }] };
  const {
    register,
    control,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm<SplitForm>({ resolver: zodResolver(splitSchema(ordered)), defaultValues: defaults });
  const parts = useFieldArray({ control, name: 'parts' });
  const close = () => {
    reset(defaults);
    setFormError(null);
    setIdemKey(productionApi.newKey());
    onClose();
  };
  const save = useMutation({
    mutationFn: (v: SplitForm) => productionApi.split(order.id, v, idemKey),
    onSuccess: async (r) => {
      toast.success('Order split', `${order.code} became ${r.child_orders.map((c) => c.code).join(', ')}.`);
      setIdemKey(productionApi.newKey());
      await done();
    },
    onError: (err) => setFormError(errorMessage(err)),
  });
  return (
    <Modal
      open={open}
      onClose={close}
      size="sm"
      title={`Split ${order.code}`}
      description={`The ${formatQty(order.quantity_ordered)} ordered become separate draft orders to release one by one; this order is closed as split and its reservations are given back.`}
      footer={
        <>
          <Button variant="secondary" onClick={close}>
            Cancel
          </Button>
          <Button variant="primary" type="submit" form="split-form" loading={save.isPending}>
            Split order
          </Button>
        </>
      }
    >
      <form id="split-form" className="form" aria-label="Split order" noValidate onSubmit={handleSubmit((v) => save.mutate(v))}>
        <FormError message={formError ?? errors.parts?.root?.message ?? errors.parts?.message} />
        {parts.fields.map((f, i) => (
          <div key={f.id} className="form__row">
            <TextField label={`Order ${i + 1}`} required inputMode="decimal" className="wo-split__part" error={errors.parts?.[i]?.quantity?.message} {...register(`parts.${i}.quantity`)} />
            {parts.fields.length > 2 && <Button variant="ghost" aria-label={`Remove order ${i + 1}`} icon={<Trash2 size={14} />} onClick={() => parts.remove(i)} />}
          </div>
        ))}
        <div>
          <Button variant="secondary" size="sm" icon={<Plus size={14} />} onClick={() => parts.append({ quantity: '' })} disabled={parts.fields.length >= 20}>
            Add a part
          </Button>
        </div>
      </form>
    </Modal>
  );
}

/** Plans when an order should run: a start, and optionally an end after it. */
export function ScheduleDialog({ order, open, onClose }: DialogProps) {
  const toast = useToast();
  const done = useDone(onClose);
  const [formError, setFormError] = useState<string | null>(null);
  const defaults: ScheduleForm = { scheduled_start: isoToLocalInput(order.scheduled_start), scheduled_end: isoToLocalInput(order.scheduled_end) };
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm<ScheduleForm>({ resolver: zodResolver(scheduleSchema), defaultValues: defaults });
  const close = () => {
    reset(defaults);
    setFormError(null);
    onClose();
  };
  const save = useMutation({
    mutationFn: (v: ScheduleForm) => productionApi.schedule(order.id, v),
    onSuccess: async () => {
      toast.success('Schedule saved', `${order.code} is planned.`);
      await done();
    },
    onError: (err) => setFormError(applyServerErrors(err, setError, ['scheduled_start', 'scheduled_end'])),
  });
  return (
    <Modal
      open={open}
      onClose={close}
      size="sm"
      title={`Schedule ${order.code}`}
      description="The planned window shows on the board and in the command center."
      footer={
        <>
          <Button variant="secondary" onClick={close}>
            Cancel
          </Button>
          <Button variant="primary" type="submit" form="schedule-form" loading={save.isPending}>
            Save schedule
          </Button>
        </>
      }
    >
      <form id="schedule-form" className="form" aria-label="Schedule order" noValidate onSubmit={handleSubmit((v) => save.mutate(v))}>
        <FormError message={formError} />
        <TextField label="Planned start" type="datetime-local" required error={errors.scheduled_start?.message} {...register('scheduled_start')} />
        <TextField label="Planned end" type="datetime-local" hint="Optional." error={errors.scheduled_end?.message} {...register('scheduled_end')} />
      </form>
    </Modal>
  );
}
