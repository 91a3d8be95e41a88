import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useWatch } from 'react-hook-form';
import { z } from 'zod';
import { inventoryApi, itemsApi } from '../../api/endpoints';
import { ApiError } from '../../api/errors';
import type { InventoryTransactionCreate } from '../../api/model';
import { SelectField, TextAreaField, TextField } from '../../components/Field';
import { FormDialog, useZodForm } from '../../components/FormDialog';
import { Modal } from '../../components/Modal';
import { useToast } from '../../components/Toast';
import { formatQty } from '../../lib/format';
import { useDebouncedValue } from '../../lib/useDebounce';
import { MANUAL_TYPE_OPTIONS, MANUAL_TYPES, TYPE_HINTS, typeLabel } from './transactionOptions';
import { QUANTITY_SCALE } from './cycleCount';
import { queryKeys } from '../../api/queryKeys';

const DECIMAL = new RegExp(`^-?\\d+(\\.\\d{1,${QUANTITY_SCALE}})?$`);
const optionalText = z
  .string()
  .trim()
  .transform((v) => v || null);
const optionalId = z.string().transform((v) => (v ? Number(v) : null));

/**
 * The new-transaction form: the fields as typed, and what the API receives (the item is
 * typed by SKU and resolved to its id on submit). The output is checked against the
 * generated body of POST /admin/inventory-transactions/, so a renamed field breaks the build.
 */
export const transactionFormSchema = z
  .object({
    transaction_type: z.enum(MANUAL_TYPES, { error: 'Choose a type.' }),
    sku: z
      .string()
      .trim()
      .min(1, 'Enter the item’s SKU.')
      .transform((v) => v.toUpperCase()),
    quantity: z.string().trim().min(1, 'Enter a quantity.'),
    location_id: optionalId,
    to_location_id: optionalId,
    cost_per_unit: z
      .string()
      .trim()
      .refine((v) => v === '' || /^\d+(\.\d+)?$/.test(v), 'Enter a cost of 0 or more, like 2.50.')
      .transform((v) => v || null),
    reason: optionalText,
    lot_number: optionalText,
    notes: optionalText,
  })
  .superRefine((v, ctx) => {
    const q = v.quantity;
    if (q === '') {
      // Already reported as missing.
    } else if (!DECIMAL.test(q)) {
      ctx.addIssue({ code: 'custom', path: ['quantity'], message: `Enter a number with at most ${QUANTITY_SCALE} decimal places.` });
    } else if (v.transaction_type === 'adjustment') {
      if (Number(q) === 0) ctx.addIssue({ code: 'custom', path: ['quantity'], message: 'An adjustment must change the quantity.' });
    } else if (Number(q) <= 0) {
      ctx.addIssue({ code: 'custom', path: ['quantity'], message: 'Enter a quantity greater than 0.' });
    }
    if (v.transaction_type === 'transfer') {
      if (v.to_location_id === null) ctx.addIssue({ code: 'custom', path: ['to_location_id'], message: 'Choose where the stock goes.' });
      else if (v.to_location_id === v.location_id)
        ctx.addIssue({ code: 'custom', path: ['to_location_id'], message: 'Choose a different destination.' });
    }
    if (v.transaction_type === 'adjustment' && !v.reason) {
      ctx.addIssue({ code: 'custom', path: ['reason'], message: 'Choose why the stock is adjusted.' });
    }
  }) satisfies z.ZodType<Omit<InventoryTransactionCreate, 'product_id'> & { sku: string }, unknown>;

export type TransactionFormValues = z.input<typeof transactionFormSchema>;
type TransactionFormOutput = z.output<typeof transactionFormSchema>;
const FIELDS = ['transaction_type', 'sku', 'quantity', 'location_id', 'to_location_id', 'cost_per_unit', 'reason', 'lot_number', 'notes'] as const;

export const EMPTY_TRANSACTION: TransactionFormValues = {
  transaction_type: 'receipt',
  sku: '',
  quantity: '',
  location_id: '',
  to_location_id: '',
  cost_per_unit: '',
  reason: '',
  lot_number: '',
  notes: '',
};

/** The body of POST /admin/inventory-transactions/ for a form output and the item's id. */
export function toTransactionBody(v: TransactionFormOutput, productId: number): InventoryTransactionCreate {
  const t = v.transaction_type;
  return {
    product_id: productId,
    transaction_type: t,
    quantity: v.quantity,
    location_id: v.location_id,
    to_location_id: t === 'transfer' ? v.to_location_id : null,
    cost_per_unit: t === 'receipt' || t === 'adjustment' ? v.cost_per_unit : null,
    reason: t === 'adjustment' ? v.reason : null,
    lot_number: v.lot_number,
    notes: v.notes,
  };
}

/** Thrown when the SKU names no item: shown on the SKU field. */
class UnknownSku extends Error {}

interface TransactionFormModalProps {
  open: boolean;
  onClose: () => void;
}

export function TransactionFormModal({ open, onClose }: TransactionFormModalProps) {
  return (
    <Modal open={open} onClose={onClose} size="lg" title="New transaction" description="Record a stock movement. It is valued and posted to the ledger at once.">
      {open && <TransactionForm onClose={onClose} />}
    </Modal>
  );
}

function TransactionForm({ onClose }: { onClose: () => void }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const locations = useQuery({ queryKey: queryKeys.inventory.locations(), queryFn: ({ signal }) => inventoryApi.locations(signal), staleTime: 60_000 });
  const reasons = useQuery({ queryKey: queryKeys.inventory.reasons(), queryFn: ({ signal }) => inventoryApi.adjustmentReasons(signal), staleTime: 300_000 });
  const form = useZodForm(transactionFormSchema, { defaultValues: EMPTY_TRANSACTION });
  const {
    register,
    setError,
    control,
    formState: { errors },
  } = form;
  const type = useWatch({ control, name: 'transaction_type' });
  const sku = useWatch({ control, name: 'sku' });
  const term = useDebouncedValue(sku.trim(), 250);
  const suggestions = useQuery({
    queryKey: queryKeys.items.list({ search: term, limit: 10, picker: true }),
    queryFn: ({ signal }) => itemsApi.list({ search: term, limit: 10, offset: 0 }, signal),
    enabled: term.length > 0,
    staleTime: 30_000,
  });
  const match = suggestions.data?.items.find((i) => i.sku.toUpperCase() === sku.trim().toUpperCase());

  const locationOptions = (locations.data ?? []).map((l) => ({ value: String(l.id), label: `${l.code} · ${l.name}` }));
  const reasonOptions = (reasons.data ?? []).map((r) => ({ value: r.code, label: r.name }));

  return (
    <FormDialog
      embedded
      form={form}
      onClose={onClose}
      label="New transaction"
      submitLabel="Post transaction"
      lockWhilePending
      submit={async (v) => {
        let id = suggestions.data?.items.find((i) => i.sku.toUpperCase() === v.sku)?.id;
        if (id === undefined) {
          try {
            id = (await itemsApi.bySku(v.sku)).id;
          } catch (err) {
            if (err instanceof ApiError && err.isNotFound) throw new UnknownSku(`No item has the SKU ${v.sku}.`);
            throw err;
          }
        }
        return inventoryApi.create(toTransactionBody(v, id));
      }}
      onSuccess={async (t, v) => {
        await queryClient.invalidateQueries({ queryKey: queryKeys.inventory.all });
        await queryClient.invalidateQueries({ queryKey: queryKeys.items.all });
        // A transfer answers with one of its two legs: name what the person posted.
        const what = typeLabel(v.transaction_type);
        const where = v.transaction_type === 'transfer' ? `to ${t.to_location_name ?? t.location_name}` : `at ${t.location_name}`;
        if (t.requires_approval && !t.approved_at) {
          toast.info(`${what} posted: stock is below zero`, `${t.product_sku} ${where} now needs an administrator’s approval.`);
        } else {
          toast.success(`${what} posted`, `${formatQty(t.quantity.replace(/^-/, ''), t.unit)} of ${t.product_sku} ${where}`);
        }
      }}
      serverError={(err) => {
        // An unknown SKU, or a `product_id` error, belongs to the SKU field.
        const skuError = err instanceof UnknownSku ? err.message : err instanceof ApiError ? err.fieldErrors.product_id : undefined;
        if (!skuError) return undefined;
        setError('sku', { type: 'server', message: skuError }, { shouldFocus: true });
        return 'Please correct the highlighted fields.';
      }}
      fields={FIELDS}
    >
      <div className="form__grid">
        <SelectField
          label="Type"
          {...register('transaction_type')}
          options={MANUAL_TYPE_OPTIONS}
          error={errors.transaction_type?.message}
          hint={TYPE_HINTS[type]}
          required
        />
        <TextField
          label="Item SKU"
          {...register('sku')}
          error={errors.sku?.message}
          required
          autoComplete="off"
          list="txn-item-suggestions"
          className="field--mono"
          hint={match ? match.name : 'Type to search by SKU or name.'}
        />
        <datalist id="txn-item-suggestions">
          {(suggestions.data?.items ?? []).map((i) => (
            <option key={i.id} value={i.sku}>
              {i.name}
            </option>
          ))}
        </datalist>
      </div>
      <div className="form__grid">
        <TextField
          label={type === 'adjustment' ? 'Quantity (+ adds, − removes)' : 'Quantity'}
          inputMode="decimal"
          {...register('quantity')}
          error={errors.quantity?.message}
          required
          hint={match ? `In ${match.unit}; ${formatQty(match.on_hand_qty)} on hand in all locations.` : undefined}
        />
        {type === 'receipt' || type === 'adjustment' ? (
          <TextField
            label="Unit cost"
            inputMode="decimal"
            {...register('cost_per_unit')}
            error={errors.cost_per_unit?.message}
            hint="Leave blank to use the item’s average or standard cost."
          />
        ) : (
          <div />
        )}
      </div>
      <div className="form__grid">
        <SelectField
          label={type === 'transfer' ? 'From location' : 'Location'}
          {...register('location_id')}
          options={locationOptions}
          placeholder="Main warehouse (default)"
          error={errors.location_id?.message}
        />
        {type === 'transfer' ? (
          <SelectField
            label="To location"
            {...register('to_location_id')}
            options={locationOptions}
            placeholder="Choose a location"
            error={errors.to_location_id?.message}
            required
          />
        ) : type === 'adjustment' ? (
          <SelectField label="Reason" {...register('reason')} options={reasonOptions} placeholder="Choose a reason" error={errors.reason?.message} required />
        ) : (
          <TextField label="Lot number" {...register('lot_number')} error={errors.lot_number?.message} autoComplete="off" />
        )}
      </div>
      <TextAreaField label="Notes" {...register('notes')} error={errors.notes?.message} rows={2} />
    </FormDialog>
  );
}
