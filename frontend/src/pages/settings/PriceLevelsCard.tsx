import { useState } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Pencil, Plus, Tags, Trash2 } from 'lucide-react';
import { z } from 'zod';
import { priceLevelsApi } from '../../api/endpoints';
import { ApiError, errorMessage } from '../../api/errors';
import type { PriceLevel, PriceLevelCreate, PriceLevelUpdate } from '../../api/model';
import { queryKeys } from '../../api/queryKeys';
import { Button } from '../../components/Button';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { CheckboxField, TextField } from '../../components/Field';
import { FormDialog, useZodForm } from '../../components/FormDialog';
import { Badge, EmptyState, ErrorState, Skeleton } from '../../components/States';
import { useToast } from '../../components/Toast';
import { PriceLevelItemsDialog } from './PriceLevelItemsDialog';

/** Text as typed; blank is null. */
const text = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `At most ${max} characters.`)
    .transform((v) => v || null);

/** The level dialog; its output is the generated body of POST /price-levels (and PATCH /price-levels/{id}). */
export const priceLevelSchema = z.object({
  name: z.string().trim().min(1, 'Enter a name.').max(100, 'At most 100 characters.'),
  discount_percent: z
    .string()
    .trim()
    .refine((v) => /^\d{1,3}(\.\d{1,2})?$/.test(v) && Number(v) <= 100, 'Enter a percentage from 0 to 100, with at most 2 decimals.'),
  description: text(500),
  is_active: z.boolean(),
}) satisfies z.ZodType<PriceLevelCreate & PriceLevelUpdate, unknown>;

type PriceLevelForm = z.input<typeof priceLevelSchema>;
const FIELDS = Object.keys(priceLevelSchema.shape) as (keyof PriceLevelForm)[];
const EMPTY: PriceLevelForm = { name: '', discount_percent: '', description: '', is_active: true };

function fromLevel(l: PriceLevel): PriceLevelForm {
  return { name: l.name, discount_percent: String(l.discount_percent), description: l.description ?? '', is_active: l.is_active };
}

/** A 400 naming a duplicate ("Price level 'X' already exists"): its field. */
function duplicateField(err: unknown): 'name' | null {
  if (!(err instanceof ApiError) || err.status !== 400) return null;
  return /^price level .* already exists/i.test(err.message) ? 'name' : null;
}

/** Settings → Price levels: discounts off list prices that customers are put on, with their own item prices. */
export function PriceLevelsCard() {
  const queryClient = useQueryClient();
  const toast = useToast();
  const [showInactive, setShowInactive] = useState(false);
  const [editing, setEditing] = useState<{ level: PriceLevel | null } | null>(null);
  const [deleting, setDeleting] = useState<PriceLevel | null>(null);
  const [pricing, setPricing] = useState<PriceLevel | null>(null);
  const levels = useQuery({
    queryKey: queryKeys.priceLevels.levels(!showInactive),
    queryFn: ({ signal }) => priceLevelsApi.list(!showInactive, signal),
    placeholderData: keepPreviousData,
  });
  const invalidate = () => queryClient.invalidateQueries({ queryKey: queryKeys.priceLevels.all });
  const remove = useMutation({
    mutationFn: (l: PriceLevel) => priceLevelsApi.remove(l.id),
    onSuccess: async (_, l) => {
      setDeleting(null);
      toast.success('Price level deactivated', `${l.name} can no longer be given to customers.`);
      await invalidate();
    },
    onError: (err) => {
      setDeleting(null);
      toast.error('The price level was not deactivated', errorMessage(err));
    },
  });

  const add = (
    <Button variant="primary" size="sm" icon={<Plus size={14} />} onClick={() => setEditing({ level: null })}>
      Add price level
    </Button>
  );

  return (
    <section className="card settings-card" aria-labelledby="price-levels-title">
      <header className="settings-card__head">
        <h2 className="card__title" id="price-levels-title">
          Price levels
        </h2>
        <p className="muted small">
          A customer on a level pays its item prices where it has them, else the list price less its discount.
        </p>
      </header>
      <div className="toolbar">
        <label className="checkbox checkbox--inline">
          <input type="checkbox" checked={showInactive} onChange={(e) => setShowInactive(e.target.checked)} /> Show inactive
        </label>
        {add}
      </div>
      {levels.isPending ? (
        <Skeleton height={80} />
      ) : levels.error ? (
        <ErrorState error={levels.error} onRetry={() => void levels.refetch()} compact />
      ) : levels.data.length === 0 ? (
        <EmptyState
          compact
          icon={<Tags size={22} />}
          title={showInactive ? 'No price levels' : 'No active price levels'}
          description="Without price levels, every customer pays the items' list prices."
        />
      ) : (
        <div className="so-scroll">
          <table className="table table--compact" aria-label="Price levels" aria-busy={levels.isFetching || undefined}>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col" className="align-right">
                  Discount
                </th>
                <th scope="col">Status</th>
                <th scope="col" className="align-right">
                  Actions
                </th>
              </tr>
            </thead>
            <tbody>
              {levels.data.map((l) => (
                <tr key={l.id}>
                  <td>
                    <span className="cell-stack">
                      <span className="cell-strong">{l.name}</span>
                      {l.description && <span className="cell-sub">{l.description}</span>}
                    </span>
                  </td>
                  <td className="align-right num">{l.discount_percent}%</td>
                  <td>
                    <Badge tone={l.is_active ? 'success' : 'neutral'}>{l.is_active ? 'Active' : 'Inactive'}</Badge>
                  </td>
                  <td className="align-right">
                    <span className="row-actions">
                      <Button size="sm" variant="ghost" icon={<Tags size={14} />} aria-label={`Item prices of ${l.name}`} onClick={() => setPricing(l)} />
                      <Button size="sm" variant="ghost" icon={<Pencil size={14} />} aria-label={`Edit ${l.name}`} onClick={() => setEditing({ level: l })} />
                      {l.is_active && (
                        <Button size="sm" variant="ghost" icon={<Trash2 size={14} />} aria-label={`Deactivate ${l.name}`} onClick={() => setDeleting(l)} />
                      )}
                    </span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <PriceLevelDialog
        key={editing?.level?.id ?? 'new'}
        open={editing !== null}
        level={editing?.level ?? null}
        onClose={() => setEditing(null)}
        onSaved={invalidate}
      />
      <PriceLevelItemsDialog level={pricing} onClose={() => setPricing(null)} />
      <ConfirmDialog
        open={deleting !== null}
        title="Deactivate price level?"
        message={
          <>
            <strong>{deleting?.name}</strong> is deactivated: it can no longer be given to customers. Orders already priced with it keep their
            prices.
          </>
        }
        confirmLabel="Deactivate"
        busy={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting)}
        onCancel={() => setDeleting(null)}
      />
    </section>
  );
}

function PriceLevelDialog({
  open,
  level,
  onClose,
  onSaved,
}: {
  open: boolean;
  level: PriceLevel | null;
  onClose: () => void;
  onSaved: () => Promise<unknown>;
}) {
  const toast = useToast();
  const initial = level ? fromLevel(level) : EMPTY;
  const form = useZodForm(priceLevelSchema, { defaultValues: initial });
  const {
    register,
    setError,
    formState: { errors },
  } = form;
  return (
    <FormDialog
      form={form}
      open={open}
      onClose={onClose}
      resetTo={initial}
      title={level ? `Edit ${level.name}` : 'Add price level'}
      description="The discount is a percentage off the list price (15 for 15 %). The level's own item prices beat it."
      id="price-level-form"
      label={level ? 'Edit price level' : 'Add price level'}
      submitLabel={level ? 'Save' : 'Add price level'}
      errorTitle="The price level was not saved"
      submit={(v) => (level ? priceLevelsApi.update(level.id, v) : priceLevelsApi.create(v))}
      onSuccess={async (saved) => {
        toast.success(level ? 'Price level saved' : 'Price level added', `${saved.name}: ${saved.discount_percent}% off`);
        await onSaved();
      }}
      fields={FIELDS}
      serverError={(err) => {
        const field = duplicateField(err);
        if (!field) return undefined;
        setError(field, { type: 'server', message: (err as ApiError).message }, { shouldFocus: true });
        return null;
      }}
    >
      <div className="form__grid">
        <TextField label="Name" required placeholder="Wholesale" error={errors.name?.message} {...register('name')} />
        <TextField
          label="Discount (%)"
          required
          inputMode="decimal"
          placeholder="15"
          error={errors.discount_percent?.message}
          {...register('discount_percent')}
        />
      </div>
      <TextField label="Description" error={errors.description?.message} {...register('description')} />
      <CheckboxField label="Active" hint="Only active levels can be given to customers." {...register('is_active')} />
    </FormDialog>
  );
}
