import { useState } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Pencil, Percent, Plus, Trash2 } from 'lucide-react';
import { z } from 'zod';
import { taxRatesApi } from '../../api/endpoints';
import { ApiError, errorMessage } from '../../api/errors';
import type { TaxRate, TaxRateCreate, TaxRateUpdate } from '../../api/model';
import { queryKeys } from '../../api/queryKeys';
import { Button } from '../../components/Button';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { CheckboxField, TextField } from '../../components/Field';
import { FormDialog, useZodForm } from '../../components/FormDialog';
import { Badge, EmptyState, ErrorState, Skeleton } from '../../components/States';
import { useToast } from '../../components/Toast';

/** Text as typed; blank is null. */
const text = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `At most ${max} characters.`)
    .transform((v) => v || null);

/** The rate dialog; its output is the generated body of POST /tax-rates (and PATCH /tax-rates/{id}). */
export const taxRateSchema = z.object({
  name: z.string().trim().min(1, 'Enter a name.').max(100, 'At most 100 characters.'),
  rate_percent: z
    .string()
    .trim()
    .refine((v) => /^\d{1,3}(\.\d{1,4})?$/.test(v) && Number(v) <= 100, 'Enter a percentage from 0 to 100, with at most 4 decimals.'),
  region: text(100),
  description: text(500),
  is_default: z.boolean(),
}) satisfies z.ZodType<TaxRateCreate & TaxRateUpdate, unknown>;

type TaxRateForm = z.input<typeof taxRateSchema>;
const FIELDS = Object.keys(taxRateSchema.shape) as (keyof TaxRateForm)[];
const EMPTY: TaxRateForm = { name: '', rate_percent: '', region: '', description: '', is_default: false };

function fromRate(r: TaxRate): TaxRateForm {
  return { name: r.name, rate_percent: String(r.rate_percent), region: r.region ?? '', description: r.description ?? '', is_default: r.is_default };
}

/** A 400 naming a duplicate ("A tax rate named 'X' already exists", "Region 'TX' already has …"): its field. */
function duplicateField(err: unknown): 'name' | 'region' | null {
  if (!(err instanceof ApiError) || err.status !== 400) return null;
  if (/^a tax rate named/i.test(err.message)) return 'name';
  if (/^region /i.test(err.message)) return 'region';
  return null;
}

/** Settings → Tax rates: named rates (by region, one default) that orders and quotes charge. */
export function TaxRatesCard() {
  const queryClient = useQueryClient();
  const toast = useToast();
  const [showInactive, setShowInactive] = useState(false);
  const [editing, setEditing] = useState<{ rate: TaxRate | null } | null>(null);
  const [deleting, setDeleting] = useState<TaxRate | null>(null);
  const rates = useQuery({
    queryKey: queryKeys.taxRates.rates(showInactive),
    queryFn: ({ signal }) => taxRatesApi.list(showInactive, signal),
    placeholderData: keepPreviousData,
  });
  const invalidate = () => queryClient.invalidateQueries({ queryKey: queryKeys.taxRates.all });
  const remove = useMutation({
    mutationFn: (r: TaxRate) => taxRatesApi.remove(r.id),
    onSuccess: async (_, r) => {
      setDeleting(null);
      toast.success('Tax rate deleted', `${r.name} is no longer offered on new orders.`);
      await invalidate();
    },
    onError: (err) => {
      setDeleting(null);
      toast.error('The tax rate was not deleted', errorMessage(err));
    },
  });

  const add = (
    <Button variant="primary" size="sm" icon={<Plus size={14} />} onClick={() => setEditing({ rate: null })}>
      Add tax rate
    </Button>
  );

  return (
    <section className="card settings-card" aria-labelledby="tax-rates-title">
      <header className="settings-card__head">
        <h2 className="card__title" id="tax-rates-title">
          Tax rates
        </h2>
        <p className="muted small">Named rates by region. An order uses its customer&apos;s rate, else the rate of its shipping region, else the default.</p>
      </header>
      <div className="toolbar">
        <label className="checkbox checkbox--inline">
          <input type="checkbox" checked={showInactive} onChange={(e) => setShowInactive(e.target.checked)} /> Show inactive
        </label>
        {add}
      </div>
      {rates.isPending ? (
        <Skeleton height={80} />
      ) : rates.error ? (
        <ErrorState error={rates.error} onRetry={() => void rates.refetch()} compact />
      ) : rates.data.length === 0 ? (
        <EmptyState
          compact
          icon={<Percent size={22} />}
          title={showInactive ? 'No tax rates' : 'No active tax rates'}
          description="Without named rates, orders and quotes charge the company tax rate above."
        />
      ) : (
        <div className="so-scroll">
          <table className="table table--compact" aria-label="Tax rates" aria-busy={rates.isFetching || undefined}>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col" className="align-right">
                  Rate
                </th>
                <th scope="col">Region</th>
                <th scope="col">Status</th>
                <th scope="col" className="align-right">
                  Actions
                </th>
              </tr>
            </thead>
            <tbody>
              {rates.data.map((r) => (
                <tr key={r.id}>
                  <td>
                    <span className="cell-stack">
                      <span className="cell-inline">
                        <span className="cell-strong">{r.name}</span>
                        {r.is_default && <Badge tone="info">Default</Badge>}
                      </span>
                      {r.description && <span className="cell-sub">{r.description}</span>}
                    </span>
                  </td>
                  <td className="align-right num">{r.rate_percent}%</td>
                  <td>{r.region ?? '—'}</td>
                  <td>
                    <Badge tone={r.is_active ? 'success' : 'neutral'}>{r.is_active ? 'Active' : 'Inactive'}</Badge>
                  </td>
                  <td className="align-right">
                    <span className="row-actions">
                      <Button size="sm" variant="ghost" icon={<Pencil size={14} />} aria-label={`Edit ${r.name}`} onClick={() => setEditing({ rate: r })} />
                      {r.is_active && (
                        <Button size="sm" variant="ghost" icon={<Trash2 size={14} />} aria-label={`Delete ${r.name}`} onClick={() => setDeleting(r)} />
                      )}
                    </span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <TaxRateDialog key={editing?.rate?.id ?? 'new'} open={editing !== null} rate={editing?.rate ?? null} onClose={() => setEditing(null)} onSaved={invalidate} />
      <ConfirmDialog
        open={deleting !== null}
        title="Delete tax rate?"
        message={
          <>
            <strong>{deleting?.name}</strong> is deactivated: new orders and customers can no longer use it. Documents that already carry it keep it.
          </>
        }
        confirmLabel="Delete"
        busy={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting)}
        onCancel={() => setDeleting(null)}
      />
    </section>
  );
}

function TaxRateDialog({ open, rate, onClose, onSaved }: { open: boolean; rate: TaxRate | null; onClose: () => void; onSaved: () => Promise<unknown> }) {
  const toast = useToast();
  const initial = rate ? fromRate(rate) : EMPTY;
  const form = useZodForm(taxRateSchema, { defaultValues: initial });
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
      title={rate ? `Edit ${rate.name}` : 'Add tax rate'}
      description="The rate is a percentage (8.25 for 8.25 %). A region is the shipping state it applies to."
      id="tax-rate-form"
      label={rate ? 'Edit tax rate' : 'Add tax rate'}
      submitLabel={rate ? 'Save' : 'Add tax rate'}
      errorTitle="The tax rate was not saved"
      submit={(v) => (rate ? taxRatesApi.update(rate.id, v) : taxRatesApi.create(v))}
      onSuccess={async (saved) => {
        toast.success(rate ? 'Tax rate saved' : 'Tax rate added', `${saved.name}: ${saved.rate_percent}%`);
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
        <TextField label="Name" required placeholder="Texas sales tax" error={errors.name?.message} {...register('name')} />
        <TextField label="Rate (%)" required inputMode="decimal" placeholder="8.25" error={errors.rate_percent?.message} {...register('rate_percent')} />
      </div>
      <TextField label="Region" placeholder="TX" hint="Orders shipped to this state or region use this rate." error={errors.region?.message} {...register('region')} />
      <TextField label="Description" error={errors.description?.message} {...register('description')} />
      <CheckboxField label="Default rate" hint="Used when no rate matches the customer or the shipping region." {...register('is_default')} />
    </FormDialog>
  );
}
