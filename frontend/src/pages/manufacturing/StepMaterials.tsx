import { useState } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useWatch } from 'react-hook-form';
import { Package, Pencil, Plus, Trash2 } from 'lucide-react';
import { itemsApi } from '../../api/endpoints';
import { errorMessage } from '../../api/errors';
import { queryKeys } from '../../api/queryKeys';
import { Button } from '../../components/Button';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { CheckboxField, SelectField, TextAreaField, TextField } from '../../components/Field';
import { FormDialog, useZodForm } from '../../components/FormDialog';
import { EmptyState, ErrorState, Skeleton } from '../../components/States';
import { useToast } from '../../components/Toast';
import { formatMoney, formatQty } from '../../lib/format';
import { useDebouncedValue } from '../../lib/useDebounce';
import {
  EMPTY_MATERIAL,
  PER_SHORT,
  QUANTITY_PER,
  materialBody,
  materialSchema,
  materialToForm,
  routingApi,
  type MaterialForm,
  type RoutingStep,
  type StepMaterial,
} from './routingApi';

const FIELDS = ['component_id', 'quantity', 'quantity_per', 'unit', 'scrap_factor', 'is_cost_only', 'is_optional', 'is_variable', 'notes'] as const;

/** Total extended cost of a step's material lines. */
export function materialCost(lines: readonly Pick<StepMaterial, 'extended_cost'>[]): number {
  return Math.round(lines.reduce((sum, m) => sum + (Number(m.extended_cost) || 0), 0) * 100) / 100;
}

interface MaterialDialogProps {
  open: boolean;
  step: RoutingStep;
  /** The line being changed; null adds one. */
  editing: StepMaterial | null;
  onClose: () => void;
}

/**
 * Adds a material line to a step or changes one. A component already on the step is a 409
 * whose sentence (change that line's quantity instead) shows in the form.
 */
export function MaterialDialog({ open, step, editing, onClose }: MaterialDialogProps) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const [find, setFind] = useState('');
  const search = useDebouncedValue(find.trim(), 250);
  // The same component search as the BOM form (same key, same request).
  const items = useQuery({
    queryKey: queryKeys.items.bomPicker(search),
    queryFn: ({ signal }) => itemsApi.list({ limit: 100, offset: 0, search: search || undefined, sort_by: 'sku', sort_order: 'asc' }, signal),
    enabled: open,
    staleTime: 30_000,
    placeholderData: keepPreviousData,
  });
  const form = useZodForm(materialSchema, { values: editing ? materialToForm(editing) : EMPTY_MATERIAL });
  const {
    register,
    control,
    formState: { errors },
  } = form;
  const componentId = useWatch({ control, name: 'component_id' });
  const found = items.data?.items ?? [];
  const options = found.map((i) => ({ value: String(i.id), label: `${i.sku} · ${i.name}` }));
  if (editing && !found.some((i) => i.id === editing.component_id))
    options.unshift({ value: String(editing.component_id), label: `${editing.component_sku ?? `#${editing.component_id}`} · ${editing.component_name ?? ''}` });
  const stockUnit = found.find((i) => String(i.id) === componentId)?.unit ?? (editing && String(editing.component_id) === componentId ? editing.unit : undefined);

  return (
    <FormDialog
      form={form}
      open={open}
      onClose={onClose}
      onReset={() => setFind('')}
      resetTo={EMPTY_MATERIAL}
      title={editing ? `Edit ${editing.component_sku ?? 'material'} on ${step.operation_code}` : `Add material to ${step.operation_code}`}
      description="What the step consumes: per unit made, per run of a plate, or once per order."
      id="step-material-form"
      label={editing ? 'Edit material' : 'Add material'}
      submitLabel={editing ? 'Save material' : 'Add material'}
      errorTitle={editing ? 'The material was not saved' : 'The material was not added'}
      submit={(v: MaterialForm) => (editing ? routingApi.updateMaterial(editing.id, materialBody(v)) : routingApi.addMaterial(step.id, materialBody(v)))}
      onSuccess={async (m) => {
        toast.success(editing ? 'Material saved' : 'Material added', `${m.component_sku ?? ''} on ${step.operation_code}`);
        await queryClient.invalidateQueries({ queryKey: queryKeys.production.routingsAll });
      }}
      fields={FIELDS}
    >
      <TextField
        label="Find components"
        type="search"
        placeholder="SKU or name"
        hint={items.data ? `Showing ${items.data.items.length} of ${items.data.total} items${search ? ' matching' : ''}.` : 'Narrows the component list.'}
        value={find}
        onChange={(e) => setFind(e.target.value)}
      />
      <SelectField
        label="Component"
        required
        placeholder={items.isPending ? 'Loading items…' : 'Choose a component'}
        options={options}
        error={errors.component_id?.message}
        {...register('component_id')}
      />
      <div className="form__grid form__grid--3">
        <TextField label="Quantity" required inputMode="decimal" error={errors.quantity?.message} {...register('quantity')} />
        <SelectField label="Per" options={QUANTITY_PER} error={errors.quantity_per?.message} {...register('quantity_per')} />
        <TextField
          label="Unit"
          placeholder={stockUnit ?? 'EA'}
          hint={stockUnit ? `Blank: ${stockUnit}, its stocking unit.` : 'Blank: the component’s stocking unit.'}
          error={errors.unit?.message}
          {...register('unit')}
        />
      </div>
      <TextField label="Scrap %" inputMode="decimal" hint="Allowance added to the quantity." error={errors.scrap_factor?.message} {...register('scrap_factor')} />
      <div className="form__grid form__grid--3">
        <CheckboxField label="Cost only" hint="Costed, never issued (wear, power)." {...register('is_cost_only')} />
        <CheckboxField label="Optional" hint="May be left out." {...register('is_optional')} />
        <CheckboxField label="Variable" hint="Swapped for a variant’s material." {...register('is_variable')} />
      </div>
      <TextAreaField label="Notes" error={errors.notes?.message} {...register('notes')} />
    </FormDialog>
  );
}

/** A step's material lines (GET /routings/operations/{id}/materials) with add, edit and delete. */
export function StepMaterials({ step }: { step: RoutingStep }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const [dialog, setDialog] = useState<{ editing: StepMaterial | null } | null>(null);
  const [deleting, setDeleting] = useState<StepMaterial | null>(null);
  const lines = useQuery({
    queryKey: queryKeys.production.stepMaterials(step.id),
    queryFn: ({ signal }) => routingApi.materials(step.id, signal),
  });
  const remove = useMutation({
    mutationFn: (m: StepMaterial) => routingApi.deleteMaterial(m.id),
    onSuccess: async (_, m) => {
      toast.success('Material removed', `${m.component_sku ?? ''} from ${step.operation_code}`);
      setDeleting(null);
      await queryClient.invalidateQueries({ queryKey: queryKeys.production.routingsAll });
    },
    onError: (err) => toast.error('The material was not removed', errorMessage(err)),
  });
  const label = `Materials of ${step.operation_code}`;

  return (
    <div className="routing-materials" role="region" aria-label={label}>
      <div className="routing-materials__head">
        <h3 className="section-subtitle">{label}</h3>
        <Button size="sm" icon={<Plus size={14} />} onClick={() => setDialog({ editing: null })}>
          Add material
        </Button>
      </div>
      {lines.isPending ? (
        <div aria-busy="true" aria-label="Loading materials">
          <Skeleton width="50%" />
        </div>
      ) : lines.error ? (
        <ErrorState compact error={lines.error} onRetry={() => void lines.refetch()} />
      ) : lines.data.length === 0 ? (
        <EmptyState compact icon={<Package size={20} />} title="No materials on this step" description="Add the filament, inserts or boxes it consumes." />
      ) : (
        <div className="datatable__scroll">
          <table className="table table--compact" aria-label={label}>
            <thead>
              <tr>
                <th scope="col">Component</th>
                <th scope="col" className="align-right">
                  Quantity
                </th>
                <th scope="col">Per</th>
                <th scope="col">Unit</th>
                <th scope="col" className="align-right">
                  Scrap %
                </th>
                <th scope="col" className="align-right">
                  Extended cost
                </th>
                <th scope="col">
                  <span className="sr-only">Edit or remove</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {lines.data.map((m) => (
                <tr key={m.id}>
                  <td>
                    <div className="cell-stack">
                      <span className="cell-strong mono">{m.component_sku ?? `#${m.component_id}`}</span>
                      <span className="cell-sub">
                        {m.component_name}
                        {m.is_cost_only && ' · cost only'}
                        {m.is_optional && ' · optional'}
                        {m.is_variable && ' · variable'}
                      </span>
                    </div>
                  </td>
                  <td className="align-right num">{formatQty(m.quantity)}</td>
                  <td>{PER_SHORT[m.quantity_per]}</td>
                  <td>{m.unit}</td>
                  <td className="align-right num">{formatQty(m.scrap_factor)}</td>
                  <td className="align-right num">{formatMoney(m.extended_cost)}</td>
                  <td className="shrink">
                    <div className="row-actions">
                      <Button size="sm" variant="ghost" icon={<Pencil size={14} />} aria-label={`Edit ${m.component_sku ?? 'material'}`} onClick={() => setDialog({ editing: m })} />
                      <Button size="sm" variant="ghost" icon={<Trash2 size={14} />} aria-label={`Remove ${m.component_sku ?? 'material'}`} onClick={() => setDeleting(m)} />
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <th scope="row" colSpan={5} className="align-right">
                  Material cost
                </th>
                <td className="align-right num" data-testid="material-cost">
                  {formatMoney(materialCost(lines.data))}
                </td>
                <td />
              </tr>
            </tfoot>
          </table>
        </div>
      )}
      <MaterialDialog open={dialog !== null} step={step} editing={dialog?.editing ?? null} onClose={() => setDialog(null)} />
      <ConfirmDialog
        open={deleting !== null}
        title="Remove this material?"
        message={deleting && `${deleting.component_sku ?? 'The line'} (${formatQty(deleting.quantity, deleting.unit)} per ${PER_SHORT[deleting.quantity_per]}) comes off step ${step.operation_code}.`}
        confirmLabel="Remove material"
        busy={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting)}
        onCancel={() => setDeleting(null)}
      />
    </div>
  );
}
