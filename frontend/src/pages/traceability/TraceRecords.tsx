/** Admin dialogs of the Lots and Serial numbers tabs: record a lot, change its status or
 * details, record a consumption; number units and move them through their statuses. */
import { useId, useRef, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, useWatch } from 'react-hook-form';
import { Wand2 } from 'lucide-react';
import { itemsApi, vendorsApi } from '../../api/endpoints';
import { errorMessage } from '../../api/errors';
import { Button } from '../../components/Button';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { FormError, SelectField, TextAreaField, TextField } from '../../components/Field';
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
  LOTS_KEY,
  lotStatusMoves,
  newKey,
  recordsApi,
  SERIALS_KEY,
  serialMovePayload,
  serialMoves,
  UNITS_FIELDS,
  unitsFormSchema,
  unitsPayload,
  type ConsumptionValues,
  type LotEditValues,
  type LotFormValues,
  type SerialMove,
  type UnitsFormValues,
} from './traceRecords';

/** Items to pick from (the first 500 by SKU). */
function useItemOptions(enabled: boolean) {
  return useQuery({
    queryKey: ['items', 'options', 'traceability'],
    queryFn: ({ signal }) => itemsApi.list({ limit: 500, active_only: true, sort_by: 'sku', sort_order: 'asc' }, signal),
    enabled,
    staleTime: 60_000,
    select: (d) => d.items.map((i) => ({ value: String(i.id), label: `${i.sku} — ${i.name}` })),
  });
}

/** Work orders to pick from; `keep` narrows them (e.g. to the ones that can make an item). */
function useWorkOrderOptions(enabled: boolean, keep: (r: ProductionOrderRow) => boolean = () => true) {
  const q = useQuery({
    queryKey: ['production', 'options', 'traceability'],
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
  const [formError, setFormError] = useState<string | null>(null);
  const items = useItemOptions(open);
  const vendors = useQuery({
    queryKey: ['vendors', 'options', 'traceability'],
    queryFn: ({ signal }) => vendorsApi.list({ limit: 500, active_only: true }, signal),
    enabled: open,
    staleTime: 60_000,
    select: (d) => d.items.map((v) => ({ value: String(v.id), label: v.name })),
  });
  const {
    register,
    handleSubmit,
    setError,
    setValue,
    getValues,
    reset,
    formState: { errors },
  } = useForm<LotFormValues>({ resolver: zodResolver(lotFormSchema), defaultValues: EMPTY_LOT_FORM });

  const close = () => {
    reset(EMPTY_LOT_FORM);
    setFormError(null);
    key.current = newKey();
    onClose();
  };

  const generate = useMutation({
    mutationFn: (productId: number) => recordsApi.generateLotNumber(productId, newKey()),
    onSuccess: (r) => setValue('lot_number', r.lot_number, { shouldValidate: true }),
    onError: (err) => setFormError(applyServerErrors(err, setError, LOT_FORM_FIELDS)),
  });
  const create = useMutation({
    mutationFn: (v: LotFormValues) => recordsApi.createLot(lotPayload(v), key.current),
    onSuccess: async (lot) => {
      toast.success('Lot recorded', `Lot ${lot.lot_number} is on file. No stock was posted.`);
      await qc.invalidateQueries({ queryKey: LOTS_KEY });
      close();
    },
    onError: (err) => {
      setFormError(applyServerErrors(err, setError, LOT_FORM_FIELDS));
      key.current = newKey();
    },
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
    <Modal
      open={open}
      onClose={close}
      size="lg"
      title="Record lot"
      description="Records a lot of material for traceability only: it posts no stock and no cost. Receive purchase orders to add stock."
      footer={
        <>
          <Button variant="secondary" onClick={close}>
            Cancel
          </Button>
          <Button variant="primary" type="submit" form={formId} loading={create.isPending}>
            Record lot
          </Button>
        </>
      }
    >
      <form
        id={formId}
        className="form"
        aria-label="Record lot"
        noValidate
        onSubmit={(e) =>
          void handleSubmit((v) => {
            if (create.isPending) return;
            setFormError(null);
            create.mutate(v);
          })(e)
        }
      >
        <FormError title="The lot was not recorded" message={formError} />
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
      </form>
    </Modal>
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
      await qc.invalidateQueries({ queryKey: LOTS_KEY });
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
  const [formError, setFormError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<LotEditValues>({
    resolver: zodResolver(lotEditSchema),
    defaultValues: { expiration_date: lot.expiration_date ?? '', vendor_lot_number: lot.vendor_lot_number ?? '', inspection_status: lot.inspection_status, notes: lot.notes ?? '' },
  });
  const save = useMutation({
    mutationFn: (v: LotEditValues) => recordsApi.updateLot(lot.id, lotEditPayload(lot, v)),
    onSuccess: async () => {
      toast.success('Lot updated', `Lot ${lot.lot_number} is saved.`);
      await qc.invalidateQueries({ queryKey: LOTS_KEY });
      onClose();
    },
    onError: (err) => setFormError(applyServerErrors(err, setError, ['expiration_date', 'vendor_lot_number', 'inspection_status', 'notes'])),
  });
  return (
    <Modal
      open
      onClose={onClose}
      title={`Edit lot ${lot.lot_number}`}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button variant="primary" type="submit" form={formId} loading={save.isPending}>
            Save
          </Button>
        </>
      }
    >
      <form id={formId} className="form" aria-label="Edit lot" noValidate onSubmit={(e) => void handleSubmit((v) => save.mutate(v))(e)}>
        <FormError title="The lot was not saved" message={formError} />
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
      </form>
    </Modal>
  );
}

function ConsumptionDialog({ lot, onClose }: { lot: MaterialLot; onClose: () => void }) {
  const qc = useQueryClient();
  const toast = useToast();
  const formId = useId();
  const key = useRef(newKey());
  const [formError, setFormError] = useState<string | null>(null);
  const remaining = Number(lot.quantity_remaining) || 0;
  const orders = useWorkOrderOptions(true);
  const {
    register,
    handleSubmit,
    setError,
    setValue,
    control,
    formState: { errors },
  } = useForm<ConsumptionValues>({
    resolver: zodResolver(consumptionSchema(remaining)),
    defaultValues: { production_order_id: '', quantity_consumed: '', serial_number_id: '', notes: '' },
  });
  const order = useWatch({ control, name: 'production_order_id' });
  const units = useQuery({
    queryKey: [...SERIALS_KEY, 'of-order', order],
    queryFn: ({ signal }) => recordsApi.unitsOf(Number(order), signal),
    enabled: order !== '',
    select: (d) => d.items.map((u) => ({ value: String(u.id), label: `${u.serial_number} (${humanize(u.status).toLowerCase()})` })),
  });
  const save = useMutation({
    mutationFn: (v: ConsumptionValues) => recordsApi.consume(consumptionPayload(lot.id, v), key.current),
    onSuccess: async () => {
      toast.success('Consumption recorded', `Drawn from lot ${lot.lot_number}.`);
      await qc.invalidateQueries({ queryKey: LOTS_KEY });
      onClose();
    },
    onError: (err) => {
      key.current = newKey();
      setFormError(applyServerErrors(err, setError, CONSUMPTION_FIELDS));
    },
  });
  return (
    <Modal
      open
      onClose={onClose}
      title={`Record consumption from lot ${lot.lot_number}`}
      description={`${formatQty(remaining)} left of ${formatQty(lot.quantity_received)} received (${lot.product_sku ?? `item #${lot.product_id}`}).`}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button variant="primary" type="submit" form={formId} loading={save.isPending}>
            Record consumption
          </Button>
        </>
      }
    >
      <form
        id={formId}
        className="form"
        aria-label="Record consumption"
        noValidate
        onSubmit={(e) =>
          void handleSubmit((v) => {
            if (save.isPending) return;
            setFormError(null);
            save.mutate(v);
          })(e)
        }
      >
        <FormError title="The consumption was not recorded" message={formError} />
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
      </form>
    </Modal>
  );
}

// ---------------------------------------------------------------- serial numbers

export function NumberUnitsDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const qc = useQueryClient();
  const toast = useToast();
  const formId = useId();
  const key = useRef(newKey());
  const [formError, setFormError] = useState<string | null>(null);
  const items = useItemOptions(open);
  const empty: UnitsFormValues = { product_id: '', production_order_id: '', quantity: '1', status: 'manufactured' };
  const {
    register,
    handleSubmit,
    setError,
    reset,
    setValue,
    formState: { errors },
    control,
  } = useForm<UnitsFormValues>({ resolver: zodResolver(unitsFormSchema), defaultValues: empty });
  const product = useWatch({ control, name: 'product_id' });
  // Only work orders of the item that are released or further along make units.
  const orders = useWorkOrderOptions(open, (r) => String(r.product_id) === product && r.status !== 'draft' && r.status !== 'cancelled');
  const close = () => {
    reset(empty);
    setFormError(null);
    key.current = newKey();
    onClose();
  };
  const save = useMutation({
    mutationFn: (v: UnitsFormValues) => recordsApi.numberUnits(unitsPayload(v), key.current),
    onSuccess: async (units) => {
      const first = units[0]?.serial_number;
      const last = units[units.length - 1]?.serial_number;
      toast.success(`${units.length} unit${units.length === 1 ? '' : 's'} numbered`, first === last ? first : `${first} to ${last}`);
      await qc.invalidateQueries({ queryKey: SERIALS_KEY });
      close();
    },
    onError: (err) => {
      key.current = newKey();
      setFormError(applyServerErrors(err, setError, UNITS_FIELDS));
    },
  });
  return (
    <Modal
      open={open}
      onClose={close}
      title="Number units"
      description="Gives units of a serial-tracked item their serial numbers. It posts no stock."
      footer={
        <>
          <Button variant="secondary" onClick={close}>
            Cancel
          </Button>
          <Button variant="primary" type="submit" form={formId} loading={save.isPending}>
            Number units
          </Button>
        </>
      }
    >
      <form
        id={formId}
        className="form"
        aria-label="Number units"
        noValidate
        onSubmit={(e) =>
          void handleSubmit((v) => {
            if (save.isPending) return;
            setFormError(null);
            save.mutate(v);
          })(e)
        }
      >
        <FormError title="The units were not numbered" message={formError} />
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
      </form>
    </Modal>
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
      await qc.invalidateQueries({ queryKey: SERIALS_KEY });
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
