import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useFieldArray, useWatch } from 'react-hook-form';
import { scrapReasonsApi } from '../../api/endpoints';
import { ApiError } from '../../api/errors';
import { Button } from '../../components/Button';
import { CheckboxField, SelectField, TextAreaField, TextField } from '../../components/Field';
import { FormDialog, useZodForm } from '../../components/FormDialog';
import { useToast } from '../../components/Toast';
import { Plus, Trash2 } from 'lucide-react';
import { isoToLocalInput } from '../../lib/localTime';
import { formatQty } from '../../lib/format';
import { spoolApi } from '../spools/spoolApi';
import { formatGrams } from '../spools/spoolWeight';
import {
  completeBody,
  completeSchema,
  consumeSchema,
  productionApi,
  scheduleSchema,
  scrapSchema,
  splitSchema,
  type CompleteForm,
  type ProductionOrder,
  type ScheduleForm,
  type ScrapForm,
  type SplitForm,
} from './productionApi';
import { queryKeys } from '../../api/queryKeys';

interface DialogProps {
  order: ProductionOrder;
  open: boolean;
  onClose: () => void;
}

function useScrapReasons(open: boolean) {
  return useQuery({ queryKey: queryKeys.production.scrapReasons(), queryFn: ({ signal }) => scrapReasonsApi.list({}, signal), enabled: open, staleTime: 300_000 });
}

/** Refetches what an order's step changes; the dialog closes after it. */
export function useDone() {
  const queryClient = useQueryClient();
  return async () => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: queryKeys.production.all }),
      // Completing and QC move the sales order the production order is for (ready to ship).
      queryClient.invalidateQueries({ queryKey: queryKeys.sales.all }),
      queryClient.invalidateQueries({ queryKey: queryKeys.printers.all }),
      queryClient.invalidateQueries({ queryKey: queryKeys.commandCenter.all }),
      queryClient.invalidateQueries({ queryKey: queryKeys.spools.all }),
      // The quality dashboard's queue and figures move with completions.
      queryClient.invalidateQueries({ queryKey: queryKeys.quality.all }),
    ]);
  };
}

/** Filament from a named spool (of one of the order's materials, when it has any), in grams. */
export function ConsumeSpoolDialog({ order, open, onClose }: DialogProps) {
  const toast = useToast();
  const done = useDone();
  const [idemKey, setIdemKey] = useState(productionApi.newKey);
  const spools = useQuery({ queryKey: queryKeys.production.spoolOptions(), queryFn: ({ signal }) => spoolApi.list({ status: 'active', limit: 500 }, signal), enabled: open });
  const materialIds = new Set(order.materials.map((m) => m.component_id));
  const all = spools.data?.items ?? [];
  const matching = all.filter((s) => materialIds.has(s.product_id));
  const choices = matching.length > 0 ? matching : all;
  const form = useZodForm(consumeSchema(all), { defaultValues: { spool_id: '', weight_consumed_g: '' } });
  const {
    register,
    control,
    formState: { errors },
  } = form;
  const spoolId = useWatch({ control, name: 'spool_id' });
  const chosen = all.find((s) => String(s.id) === spoolId);
  // The spool list is for administrators (spec 4.5): an operator types the spool's id from its label.
  const forbidden = spools.error instanceof ApiError && spools.error.status === 403;
  return (
    <FormDialog
      form={form}
      open={open}
      onClose={onClose}
      onReset={() => setIdemKey(productionApi.newKey())}
      size="sm"
      title="Consume from a spool"
      description="The grams come off the spool and are issued to the order (WIP)."
      id="consume-spool-form"
      label="Consume from a spool"
      submitLabel="Consume"
      submit={(v) => productionApi.consumeSpool(order.id, Number(v.spool_id), v.weight_consumed_g.trim(), idemKey)}
      onSuccess={async (_o, v) => {
        toast.success('Filament consumed', `${v.weight_consumed_g} g from ${chosen?.spool_number ?? 'the spool'} went into ${order.code}.`);
        await done();
      }}
      fields={['spool_id', 'weight_consumed_g']}
    >
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
    </FormDialog>
  );
}

/** Completion: good and scrapped quantities (the finished goods go to stock at actual cost). */
export function CompleteDialog({ order, open, onClose }: DialogProps) {
  const toast = useToast();
  const done = useDone();
  const reasons = useScrapReasons(open);
  const [idemKey, setIdemKey] = useState(productionApi.newKey);
  const ordered = Number(order.quantity_ordered);
  const defaults: CompleteForm = { quantity_completed: String(order.quantity_remaining), quantity_scrapped: '0', scrap_reason: '', force_close_short: false, notes: '' };
  const form = useZodForm(completeSchema(ordered, order.status === 'short'), { defaultValues: defaults });
  const {
    register,
    control,
    formState: { errors },
  } = form;
  const scrapped = Number(useWatch({ control, name: 'quantity_scrapped' }) || 0) > 0;
  return (
    <FormDialog
      form={form}
      open={open}
      onClose={onClose}
      resetTo={defaults}
      onReset={() => setIdemKey(productionApi.newKey())}
      title={`Complete ${order.code}`}
      description={`Ordered ${formatQty(order.quantity_ordered)}. Good units go to finished goods; scrapped ones are written off at WIP cost.`}
      id="complete-form"
      label="Complete order"
      submitLabel="Complete order"
      submit={(v) => productionApi.complete(order.id, completeBody(v), idemKey)}
      onSuccess={async (o) => {
        toast.success('Order completed', `${o.code}: ${formatQty(o.quantity_completed)} good, ${formatQty(o.quantity_scrapped)} scrapped.`);
        await done();
      }}
      fields={['quantity_completed', 'quantity_scrapped', 'scrap_reason', 'force_close_short', 'notes']}
    >
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
    </FormDialog>
  );
}

/** Scrapping a released or running order (at WIP cost), with an optional remake order. */
export function ScrapDialog({ order, open, onClose }: DialogProps) {
  const toast = useToast();
  const done = useDone();
  const reasons = useScrapReasons(open);
  const [idemKey, setIdemKey] = useState(productionApi.newKey);
  const remaining = Number(order.quantity_remaining);
  const defaults: ScrapForm = { scrap_reason: '', quantity_scrapped: String(remaining), notes: '', create_remake: true };
  const form = useZodForm(scrapSchema(remaining), { defaultValues: defaults });
  const {
    register,
    formState: { errors },
  } = form;
  return (
    <FormDialog
      form={form}
      open={open}
      onClose={onClose}
      resetTo={defaults}
      onReset={() => setIdemKey(productionApi.newKey())}
      size="sm"
      title={`Scrap ${order.code}`}
      description="The work in progress is written off to scrap expense. This cannot be undone."
      id="scrap-form"
      label="Scrap order"
      submitVariant="danger"
      submitLabel="Scrap"
      submit={(v) => productionApi.scrap(order.id, v, idemKey)}
      onSuccess={async () => {
        toast.success('Scrapped', `${order.code} was scrapped.`);
        await done();
      }}
      fields={['scrap_reason', 'quantity_scrapped', 'notes']}
    >
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
    </FormDialog>
  );
}

/** Splits a released order into two or more orders whose quantities add up to it (e.g. to run them on several printers). */
export function SplitDialog({ order, open, onClose }: DialogProps) {
  const toast = useToast();
  const done = useDone();
  const [idemKey, setIdemKey] = useState(productionApi.newKey);
  const ordered = Number(order.quantity_ordered);
  const half = Math.floor(ordered / 2);
  const defaults: SplitForm = { parts: half > 0 && half < ordered ? [{ quantity: String(ordered - half) }, { quantity: String(half) }] : [{ quantity: '' }, { quantity: '' }] };
  const form = useZodForm(splitSchema(ordered), { defaultValues: defaults });
  const {
    register,
    control,
    formState: { errors },
  } = form;
  const parts = useFieldArray({ control, name: 'parts' });
  return (
    <FormDialog
      form={form}
      open={open}
      onClose={onClose}
      resetTo={defaults}
      onReset={() => setIdemKey(productionApi.newKey())}
      size="sm"
      title={`Split ${order.code}`}
      description={`The ${formatQty(order.quantity_ordered)} ordered become separate draft orders to release one by one; this order is closed as split and its reservations are given back.`}
      id="split-form"
      label="Split order"
      submitLabel="Split order"
      submit={(v) => productionApi.split(order.id, v, idemKey)}
      onSuccess={async (r) => {
        toast.success('Order split', `${order.code} became ${r.child_orders.map((c) => c.code).join(', ')}.`);
        await done();
      }}
      fallbackError={errors.parts?.root?.message ?? errors.parts?.message}
    >
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
    </FormDialog>
  );
}

/** Plans when an order should run: a start, and optionally an end after it. */
export function ScheduleDialog({ order, open, onClose }: DialogProps) {
  const toast = useToast();
  const done = useDone();
  const defaults: ScheduleForm = { scheduled_start: isoToLocalInput(order.scheduled_start), scheduled_end: isoToLocalInput(order.scheduled_end) };
  const form = useZodForm(scheduleSchema, { defaultValues: defaults });
  const {
    register,
    formState: { errors },
  } = form;
  return (
    <FormDialog
      form={form}
      open={open}
      onClose={onClose}
      resetTo={defaults}
      size="sm"
      title={`Schedule ${order.code}`}
      description="The planned window shows on the board and in the command center."
      id="schedule-form"
      label="Schedule order"
      submitLabel="Save schedule"
      submit={(v) => productionApi.schedule(order.id, v)}
      onSuccess={async () => {
        toast.success('Schedule saved', `${order.code} is planned.`);
        await done();
      }}
      fields={['scheduled_start', 'scheduled_end']}
    >
      <TextField label="Planned start" type="datetime-local" required error={errors.scheduled_start?.message} {...register('scheduled_start')} />
      <TextField label="Planned end" type="datetime-local" hint="Optional." error={errors.scheduled_end?.message} {...register('scheduled_end')} />
    </FormDialog>
  );
}
