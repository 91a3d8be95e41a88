/** Admin dialogs of the Lots and Serial numbers tabs: record a lot, change its status or
 * details, record a consumption; number units and move them through their statuses. */
import { useId, useRef, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useWatch } from 'react-hook-form';
import { Wand2 } from 'lucide-react';
import { itemsApi, vendorsApi } from '../../api/endpoints';
import { errorMessage } from '../../api/errors';
import { Button } from '../../components/Button';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { SelectField, TextAreaField, TextField } from '../../components/Field';
import { FormDialog, useZodForm } from '../../components/FormDialog';
import { Modal } from '../../components/Modal';
import { useToast } from '../../components/Toast';
import { formatQty, humanize } from '../../lib/format';
import { applyServerErrors } from '../../lib/forms';
import { productionApi, type ProductionOrderRow } from '../production/productionApi';
import type { LotStatus, MaterialLot, SerialUnit } from './traceApi';
import {
  CONSUMPTION_FIELDS,
  consumptionPayload,
  consumptionSchema,
  EMPTY_LOT_FORM,
  GUARDED_LOT_STATUSES,
  INSPECTION_STATUSES,
  LOT_FORM_FIELDS,
  LOT_STATUS_VERB,
  lotEditPayload,
  lotEditSchema,
  lotFormSchema,
  lotPayload,
  lotStatusMoves,
  newKey,
  recordsApi,
  serialMovePayload,
  serialMoves,
  UNITS_FIELDS,
  unitsFormSchema,
  unitsPayload,
  type SerialMove,
  type UnitsFormValues,
} from './traceRecords';
import { queryKeys } from '../../api/queryKeys';

/** Items to pick from (the first 500 by SKU). */
function useItemOptions(enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.items.options('traceability'),
    queryFn: ({ signal }) => itemsApi.list({ limit: 500, active_only: true, sort_by: 'sku', sort_order: 'asc' }, signal),
    enabled,
    staleTime: 60_000,
    select: (d) => d.items.map((i) => ({ value: String(i.id), label: `${i.sku} — ${i.name}` })),
  });
}

/** Work orders to pick from; `keep` narrows them (e.g. to the ones that can make an item). */
function useWorkOrderOptions(enabled: boolean, keep: (r: ProductionOrderRow) => boolean = () => true) {
  const q = useQuery({
    queryKey: queryKeys.production.options('traceability'),
    queryFn: ({ signal }) => productionApi.list({ limit: 500 }, signal),
    enabled,
    staleTime: 30_000,
  });
  const data = q.data
    ?.filter(keep)
    .map((r) => ({ value: String(r.id), label: `${r.code} — ${r.product_sku ?? ''} ${r.product_name ?? ''} (${humanize(r.status)})`.replace(/\s+/g, ' ') }));
  return { ...q, data };
}

function pickerHint(q: { isLoading: boolean; isError: boolean; error: unknown; data?: unknown[] }, none: string, fallback?: string) {
  if (q.isLoading) return 'Loading…';
  if (q.isError) return `Could not load the list: ${errorMessage(q.error)}`;
  if (q.data && q.data.length === 0) return none;
  return fallback;
}

// ---------------------------------------------------------------- record a lot

export function RecordLotDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const qc = useQueryClient();
  const toast = useToast();
  const formId = useId();
  const key = useRef(newKey());
  const errorState = useState<string | null>(null);
  const setFormError = errorState[1];
  const items = useItemOptions(open);
  const vendors = useQuery({
    queryKey: queryKeys.vendors.options('traceability'),
    queryFn: ({ signal }) => vendorsApi.list({ limit: 500, active_only: true }, signal),
    enabled: open,
    staleTime: 60_000,
    select: (d) => d.items.map((v) => ({ value: String(v.id), label: v.name })),
  });
  const form = useZodForm(lotFormSchema, { defaultValues: EMPTY_LOT_FORM });
  const {
    register,
    setError,
    setValue,
    getValues,
    formState: { errors },
  } = form;

  const generate = useMutation({
    mutationFn: (productId: number) => recordsApi.generateLotNumber(productId, newKey()),
    onSuccess: (r) => setValue('lot_number', r.lot_number, { shouldValidate: true }),
    onError: (err) => setFormError(applyServerErrors(err, setError, LOT_FORM_FIELDS)),
  });

  const onGenerate = () => {
    const product = getValues('product_id');
    if (!product) {
      setError('product_id', { type: 'manual', message: 'Pick the item first: lot numbers start with its SKU' });
      return;
    }
    setFormError(null);
    generate.mutate(Number(product));
  };

  return (
    <FormDialog
      form={form}
      open={open}
      onClose={onClose}
      resetTo={EMPTY_LOT_FORM}
      onReset={() => {
        key.current = newKey();
      }}
      size="lg"
      title="Record lot"
      description="Records a lot of material for traceability only: it posts no stock and no cost. Receive purchase orders to add stock."
      id={formId}
      label="Record lot"
      submitLabel="Record lot"
      errorTitle="The lot was not recorded"
      errorState={errorState}
      submit={(v) => recordsApi.createLot(lotPayload(v), key.current)}
      onSuccess={async (lot) => {
        toast.success('Lot recorded', `Lot ${lot.lot_number} is on file. No stock was posted.`);
        await qc.invalidateQueries({ queryKey: queryKeys.traceabilityLots.all });
      }}
      serverError={(err) => {
        key.current = newKey();
        return applyServerErrors(err, setError, LOT_FORM_FIELDS);
      }}
    >
      <p className="trace-note" role="note">
        This posts no stock: on-hand quantities and the inventory ledger stay as they are.
      </p>
      <SelectField
        label="Item"
        required
        placeholder="Pick an item…"
        options={items.data ?? []}
        hint={pickerHint(items, 'No items yet: add the material on the Items page first.')}
        error={errors.product_id?.message}
        {...register('product_id')}
      />
      <div className="form__grid">
        <TextField
          label="Lot number"
          hint="Leave blank to number it automatically."
          error={errors.lot_number?.message}
          autoComplete="off"
          after={
            <Button size="sm" icon={<Wand2 size={14} />} onClick={onGenerate} loading={generate.isPending}>
              Generate number
            </Button>
          }
          {...register('lot_number')}
        />
        <TextField label="Quantity received" required inputMode="decimal" error={errors.quantity_received?.message} {...register('quantity_received')} />
        <SelectField
          label="Vendor"
          placeholder="No vendor"
          options={vendors.data ?? []}
          hint={pickerHint(vendors, 'No vendors on file.')}
          error={errors.vendor_id?.message}
          {...register('vendor_id')}
        />
        <TextField label="Vendor lot number" autoComplete="off" error={errors.vendor_lot_number?.message} {...register('vendor_lot_number')} />
        <TextField label="Received on" type="date" hint="Today when blank." error={errors.received_date?.message} {...register('received_date')} />
        <TextField label="Expires on" type="date" error={errors.expiration_date?.message} {...register('expiration_date')} />
        <TextField label="Unit cost" inputMode="decimal" error={errors.unit_cost?.message} {...register('unit_cost')} />
      </div>
      <TextAreaField label="Notes" error={errors.notes?.message} {...register('notes')} />
    </FormDialog>
  );
}

// ---------------------------------------------------------------- lot row actions

/** Status change, edit and consumption buttons of one lot. */
export function LotActions({ lot }: { lot: MaterialLot }) {
  const qc = useQueryClient();
  const toast = useToast();
  const [confirm, setConfirm] = useState<LotStatus | null>(null);
  const [editing, setEditing] = useState(false);
  const [consuming, setConsuming] = useState(false);
  const setStatus = useMutation({
    mutationFn: (status: LotStatus) => recordsApi.updateLot(lot.id, { status }),
    onSuccess: async (l) => {
      toast.success('Lot updated', `Lot ${l.lot_number} is ${humanize(l.status).toLowerCase()}.`);
      setConfirm(null);
      await qc.invalidateQueries({ queryKey: queryKeys.traceabilityLots.all });
    },
    onError: (err) => {
      setConfirm(null);
      toast.error('The lot was not changed', errorMessage(err));
    },
  });
  const choose = (s: string) => {
    if (!s) return;
    const status = s as LotStatus;
    if (GUARDED_LOT_STATUSES.includes(status)) setConfirm(status);
    else setStatus.mutate(status);
  };
  const remaining = Number(lot.quantity_remaining);
  return (
    <div className="trace-actions">
      <select
        className="input input--select input--sm"
        aria-label={`Change status of lot ${lot.lot_number}`}
        value=""
        disabled={setStatus.isPending}
        onChange={(e) => choose(e.target.value)}
      >
        <option value="">Status…</option>
        {lotStatusMoves(lot.status).map((s) => (
          <option key={s} value={s}>
            {LOT_STATUS_VERB[s]}
          </option>
        ))}
      </select>
      <Button size="sm" variant="ghost" onClick={() => setEditing(true)} aria-label={`Edit lot ${lot.lot_number}`}>
        Edit
      </Button>
      <Button size="sm" variant="ghost" onClick={() => setConsuming(true)} disabled={!(remaining > 0)} aria-label={`Record consumption from lot ${lot.lot_number}`}>
        Consume
      </Button>
      <ConfirmDialog
        open={confirm !== null}
        title={confirm ? `${LOT_STATUS_VERB[confirm]} lot ${lot.lot_number}?` : ''}
        message={
          confirm === 'recalled'
            ? 'A recalled lot cannot be drawn by work orders. Use the Recall impact tab to find the customers to contact.'
            : 'Work orders cannot draw from the lot until it is active again.'
        }
        confirmLabel={confirm ? LOT_STATUS_VERB[confirm] : 'Confirm'}
        busy={setStatus.isPending}
        onConfirm={() => confirm && setStatus.mutate(confirm)}
        onCancel={() => setConfirm(null)}
      />
      {editing && <EditLotDialog lot={lot} onClose={() => setEditing(false)} />}
      {consuming && <ConsumptionDialog lot={lot} onClose={() => setConsuming(false)} />}
    </div>
  );
}

function EditLotDialog({ lot, onClose }: { lot: MaterialLot; onClose: () => void }) {
  const qc = useQueryClient();
  const toast = useToast();
  const formId = useId();
  const form = useZodForm(lotEditSchema, {
    defaultValues: { expiration_date: lot.expiration_date ?? '', vendor_lot_number: lot.vendor_lot_number ?? '', inspection_status: lot.inspection_status, notes: lot.notes ?? '' },
  });
  const {
    register,
    formState: { errors },
  } = form;
  return (
    <FormDialog
      form={form}
      open
      onClose={onClose}
      title={`Edit lot ${lot.lot_number}`}
      id={formId}
      label="Edit lot"
      submitLabel="Save"
      errorTitle="The lot was not saved"
      submit={(v) => recordsApi.updateLot(lot.id, lotEditPayload(lot, v))}
      onSuccess={async () => {
        toast.success('Lot updated', `Lot ${lot.lot_number} is saved.`);
        await qc.invalidateQueries({ queryKey: queryKeys.traceabilityLots.all });
      }}
      fields={['expiration_date', 'vendor_lot_number', 'inspection_status', 'notes']}
    >
      <div className="form__grid">
        <TextField label="Expires on" type="date" error={errors.expiration_date?.message} {...register('expiration_date')} />
        <SelectField
          label="Inspection"
          options={INSPECTION_STATUSES.map((s) => ({ value: s, label: humanize(s) }))}
          error={errors.inspection_status?.message}
          {...register('inspection_status')}
        />
        <TextField label="Vendor lot number" error={errors.vendor_lot_number?.message} {...register('vendor_lot_number')} />
      </div>
      <TextAreaField label="Notes" error={errors.notes?.message} {...register('notes')} />
    </FormDialog>
  );
}

function ConsumptionDialog({ lot, onClose }: { lot: MaterialLot; onClose: () => void }) {
  const qc = useQueryClient();
  const toast = useToast();
  const formId = useId();
  const key = useRef(newKey());
  const remaining = Number(lot.quantity_remaining) || 0;
  const orders = useWorkOrderOptions(true);
  const form = useZodForm(consumptionSchema(remaining), {
    defaultValues: { production_order_id: '', quantity_consumed: '', serial_number_id: '', notes: '' },
  });
  const {
    register,
    setValue,
    control,
    formState: { errors },
  } = form;
  const order = useWatch({ control, name: 'production_order_id' });
  const units = useQuery({
    queryKey: queryKeys.traceabilitySerials.ofOrder(order),
    queryFn: ({ signal }) => recordsApi.unitsOf(Number(order), signal),
    enabled: order !== '',
    select: (d) => d.items.map((u) => ({ value: String(u.id), label: `${u.serial_number} (${humanize(u.status).toLowerCase()})` })),
  });
  return (
    <FormDialog
      form={form}
      open
      onClose={onClose}
      title={`Record consumption from lot ${lot.lot_number}`}
      description={`${formatQty(remaining)} left of ${formatQty(lot.quantity_received)} received (${lot.product_sku ?? `item #${lot.product_id}`}).`}
      id={formId}
      label="Record consumption"
      submitLabel="Record consumption"
      errorTitle="The consumption was not recorded"
      submit={(v) => recordsApi.consume(consumptionPayload(lot.id, v), key.current)}
      onSuccess={async () => {
        toast.success('Consumption recorded', `Drawn from lot ${lot.lot_number}.`);
        await qc.invalidateQueries({ queryKey: queryKeys.traceabilityLots.all });
      }}
      serverError={() => {
        key.current = newKey();
        return undefined;
      }}
      fields={CONSUMPTION_FIELDS}
    >
      <SelectField
        label="Work order"
        required
        placeholder="Pick a work order…"
        options={orders.data ?? []}
        hint={pickerHint(orders, 'No work orders yet.')}
        error={errors.production_order_id?.message}
        {...register('production_order_id', { onChange: () => setValue('serial_number_id', '') })}
      />
      <div className="form__grid">
        <TextField
          label="Quantity"
          required
          inputMode="decimal"
          hint={`${formatQty(remaining)} left in the lot.`}
          error={errors.quantity_consumed?.message}
          {...register('quantity_consumed')}
        />
        <SelectField
          label="Unit"
          placeholder="No particular unit"
          options={units.data ?? []}
          disabled={order === ''}
          hint={order === '' ? 'Pick the work order first.' : pickerHint(units, 'The work order has no numbered units.', 'Optional: the unit it went into.')}
          error={errors.serial_number_id?.message}
          {...register('serial_number_id')}
        />
      </div>
      <TextAreaField label="Notes" error={errors.notes?.message} {...register('notes')} />
    </FormDialog>
  );
}

// ---------------------------------------------------------------- serial numbers

export function NumberUnitsDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const qc = useQueryClient();
  const toast = useToast();
  const formId = useId();
  const key = useRef(newKey());
  const items = useItemOptions(open);
  const empty: UnitsFormValues = { product_id: '', production_order_id: '', quantity: '1', status: 'manufactured' };
  const form = useZodForm(unitsFormSchema, { defaultValues: empty });
  const {
    register,
    setValue,
    formState: { errors },
    control,
  } = form;
  const product = useWatch({ control, name: 'product_id' });
  // Only work orders of the item that are released or further along make units.
  const orders = useWorkOrderOptions(open, (r) => String(r.product_id) === product && r.status !== 'draft' && r.status !== 'cancelled');
  return (
    <FormDialog
      form={form}
      open={open}
      onClose={onClose}
      resetTo={empty}
      onReset={() => {
        key.current = newKey();
      }}
      title="Number units"
      description="Gives units of a serial-tracked item their serial numbers. It posts no stock."
      id={formId}
      label="Number units"
      submitLabel="Number units"
      errorTitle="The units were not numbered"
      submit={(v) => recordsApi.numberUnits(unitsPayload(v), key.current)}
      onSuccess={async (units) => {
        const first = units[0]?.serial_number;
        const last = units[units.length - 1]?.serial_number;
        toast.success(`${units.length} unit${units.length === 1 ? '' : 's'} numbered`, first === last ? first : `${first} to ${last}`);
        await qc.invalidateQueries({ queryKey: queryKeys.traceabilitySerials.all });
      }}
      serverError={() => {
        key.current = newKey();
        return undefined;
      }}
      fields={UNITS_FIELDS}
    >
      <SelectField
        label="Item"
        required
        placeholder="Pick an item…"
        options={items.data ?? []}
        hint={pickerHint(items, 'No items yet.', 'The item must track serial numbers (set on the item).')}
        error={errors.product_id?.message}
        {...register('product_id', { onChange: () => setValue('production_order_id', '') })}
      />
      <SelectField
        label="Work order"
        placeholder="None"
        options={orders.data ?? []}
        hint={product ? pickerHint(orders, 'No released work order makes this item.', 'Optional: the work order that made them.') : 'Pick the item first to see its work orders.'}
        error={errors.production_order_id?.message}
        {...register('production_order_id')}
      />
      <div className="form__grid">
        <TextField label="How many" required inputMode="numeric" hint="1 to 1000." error={errors.quantity?.message} {...register('quantity')} />
        <SelectField
          label="Status"
          options={[
            { value: 'manufactured', label: 'Manufactured' },
            { value: 'in_stock', label: 'In stock' },
          ]}
          error={errors.status?.message}
          {...register('status')}
        />
      </div>
    </FormDialog>
  );
}

/** The allowed status moves and QC of one unit. */
export function SerialActions({ unit }: { unit: SerialUnit }) {
  const qc = useQueryClient();
  const toast = useToast();
  const [pending, setPending] = useState<SerialMove | null>(null);
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);
  const update = useMutation({
    mutationFn: (body: Parameters<typeof recordsApi.updateSerial>[1]) => recordsApi.updateSerial(unit.id, body),
    onSuccess: async (u) => {
      toast.success('Unit updated', `${u.serial_number} is ${humanize(u.status).toLowerCase()}${u.qc_date ? `, QC ${u.qc_passed ? 'passed' : 'failed'}` : ''}.`);
      setPending(null);
      setReason('');
      await qc.invalidateQueries({ queryKey: queryKeys.traceabilitySerials.all });
    },
    onError: (err) => {
      if (pending?.reason) {
        setReasonError(errorMessage(err));
        return;
      }
      setPending(null);
      toast.error('The unit was not changed', errorMessage(err));
    },
  });
  const start = (m: SerialMove) => {
    if (m.confirm || m.reason) {
      setReasonError(null);
      setPending(m);
    } else update.mutate(serialMovePayload(m));
  };
  const submitReturn = () => {
    if (!pending) return;
    if (!reason.trim()) {
      setReasonError('Say why the unit came back');
      return;
    }
    update.mutate(serialMovePayload(pending, reason));
  };
  const moves = serialMoves(unit.status);
  return (
    <div className="trace-actions">
      {moves.map((m) => (
        <Button key={m.to} size="sm" variant={m.to === 'scrapped' ? 'ghost' : 'secondary'} onClick={() => start(m)} disabled={update.isPending} aria-label={`${m.label} ${unit.serial_number}`}>
          {m.label}
        </Button>
      ))}
      {unit.status !== 'scrapped' && (
        <>
          <Button size="sm" variant="ghost" onClick={() => update.mutate({ qc_passed: true })} disabled={update.isPending} aria-label={`QC pass ${unit.serial_number}`}>
            QC pass
          </Button>
          <Button size="sm" variant="ghost" onClick={() => update.mutate({ qc_passed: false })} disabled={update.isPending} aria-label={`QC fail ${unit.serial_number}`}>
            QC fail
          </Button>
        </>
      )}
      <ConfirmDialog
        open={pending?.confirm === true}
        title={`Scrap ${unit.serial_number}?`}
        message="A scrapped unit cannot be put back in stock."
        confirmLabel="Scrap"
        busy={update.isPending}
        onConfirm={() => pending && update.mutate(serialMovePayload(pending))}
        onCancel={() => setPending(null)}
      />
      <Modal
        open={pending?.reason === true}
        onClose={() => setPending(null)}
        size="sm"
        title={`Return ${unit.serial_number}`}
        footer={
          <>
            <Button variant="secondary" onClick={() => setPending(null)}>
              Cancel
            </Button>
            <Button variant="primary" onClick={submitReturn} loading={update.isPending}>
              Record return
            </Button>
          </>
        }
      >
        <TextAreaField label="Reason" required value={reason} error={reasonError} onChange={(e) => setReason(e.target.value)} />
      </Modal>
    </div>
  );
}
