import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useFieldArray, useWatch, type Path } from 'react-hook-form';
import { ArrowDown, ArrowUp, Plus, Trash2 } from 'lucide-react';
import { itemsApi } from '../../api/endpoints';
import { ApiError } from '../../api/errors';
import { queryKeys } from '../../api/queryKeys';
import { Button } from '../../components/Button';
import { CheckboxField, SelectField, TextAreaField, TextField } from '../../components/Field';
import { FormDialog, useZodForm } from '../../components/FormDialog';
import { EmptyState } from '../../components/States';
import { useToast } from '../../components/Toast';
import { applyServerErrors } from '../../lib/forms';
import { routingApi } from '../manufacturing/routingApi';
import {
  duplicateCodes,
  EMPTY_CHARACTERISTIC,
  EMPTY_PLAN,
  planBody,
  planSchema,
  planToForm,
  qualityApi,
  SEVERITIES,
  snakeField,
  type PlanForm,
  type QualityPlan,
} from './qualityApi';

const TOP_FIELDS = ['code', 'name', 'product_id', 'version', 'revision', 'effective_date', 'notes'] as const;
const ROW_FIELDS = ['code', 'characteristic', 'characteristic_type', 'nominal', 'lower_limit', 'upper_limit', 'unit', 'acceptance_criteria', 'severity', 'routing_operation_id'] as const;

export function useProductOptions(enabled = true) {
  return useQuery({
    queryKey: queryKeys.production.productOptions(),
    queryFn: ({ signal }) => itemsApi.list({ limit: 500, active_only: true, sort_by: 'sku' }, signal),
    enabled,
  });
}

interface PlanEditorProps {
  open: boolean;
  /** The plan to change; null makes a new one. */
  plan: QualityPlan | null;
  onClose: () => void;
}

/**
 * A quality plan: its header and its characteristics (added, removed and reordered in a
 * table; variable rows are measured against limits, attribute rows judged against
 * acceptance criteria). The rules the server checks are checked first; its errors land on
 * the row and field they name.
 */
export function PlanEditor({ open, plan, onClose }: PlanEditorProps) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const defaults = plan ? planToForm(plan) : EMPTY_PLAN;
  const form = useZodForm(planSchema, { defaultValues: defaults });
  const {
    register,
    control,
    setValue,
    setError,
    formState: { errors, dirtyFields },
  } = form;
  const rows = useFieldArray({ control, name: 'characteristics' });
  const productId = useWatch({ control, name: 'product_id' });
  const types = useWatch({ control, name: 'characteristics' });
  const products = useProductOptions(open);
  const routings = useQuery({
    queryKey: queryKeys.production.routings(Number(productId) || undefined),
    queryFn: ({ signal }) => routingApi.ofProduct(Number(productId), signal),
    enabled: open && Number(productId) > 0,
  });
  const routing = routings.data?.find((r) => r.is_active) ?? routings.data?.[0];
  const steps = (routing?.operations ?? []).map((o) => ({ value: String(o.id), label: `${o.operation_code} · ${o.operation_name}` }));
  const productOptions = (products.data?.items ?? []).filter((i) => i.item_type !== 'service').map((i) => ({ value: String(i.id), label: `${i.sku} · ${i.name}` }));
  if (plan?.product_id && !productOptions.some((o) => o.value === String(plan.product_id))) productOptions.unshift({ value: String(plan.product_id), label: `Item #${plan.product_id}` });

  const fields: Path<PlanForm>[] = [...TOP_FIELDS, ...rows.fields.flatMap((_, i) => ROW_FIELDS.map((f) => `characteristics.${i}.${f}` as Path<PlanForm>))];
  const rowErrors = errors.characteristics;

  return (
    <FormDialog
      form={form}
      open={open}
      onClose={onClose}
      resetTo={defaults}
      size="lg"
      title={plan ? `Edit ${plan.code}` : 'New quality plan'}
      description="What an inspector checks on a product: measured characteristics with their limits, and attributes judged by eye."
      id="quality-plan-form"
      label={plan ? `Edit quality plan ${plan.code}` : 'New quality plan'}
      submitLabel={plan ? 'Save plan' : 'Create plan'}
      errorTitle="The plan was not saved"
      submit={(v) => (plan ? qualityApi.updatePlan(plan.id, planBody(v, Boolean(dirtyFields.characteristics))) : qualityApi.createPlan(planBody(v)))}
      serverError={(err) => {
        if (!(err instanceof ApiError)) return undefined;
        // Nested names come as the GraphQL spells them (`characteristics.0.lowerLimit`).
        const renamed = Object.fromEntries(Object.entries(err.fieldErrors).map(([f, m]) => [snakeField(f), m]));
        const dup = duplicateCodes(err);
        const codes = form.getValues('characteristics').map((c) => c.code.trim());
        dup.forEach((code) => codes.forEach((c, i) => c === code && setError(`characteristics.${i}.code`, { type: 'server', message: `Code ${code} is used twice.` })));
        if (/product_id/.test(err.message) && err.status === 400) setError('product_id', { type: 'server', message: err.message });
        return applyServerErrors(new ApiError(err.status, err.message, renamed, err.code, err.body), setError, fields);
      }}
      onSuccess={async (saved) => {
        toast.success(plan ? 'Plan saved' : 'Plan created', `${saved.code} · ${saved.name}, ${saved.characteristics.length} characteristic${saved.characteristics.length === 1 ? '' : 's'}.`);
        await queryClient.invalidateQueries({ queryKey: queryKeys.quality.all });
      }}
    >
      <div className="form__grid form__grid--3">
        <TextField label="Code" required error={errors.code?.message} {...register('code')} />
        <TextField label="Name" required className="qp-span-2" error={errors.name?.message} {...register('name')} />
      </div>
      <div className="form__grid form__grid--4">
        <SelectField
          label="Product"
          required
          className="qp-span-2"
          placeholder={products.isPending ? 'Loading products…' : 'Choose a product'}
          options={productOptions}
          error={errors.product_id?.message}
          {...register('product_id')}
        />
        <TextField label="Version" inputMode="numeric" error={errors.version?.message} {...register('version')} />
        <TextField label="Revision" error={errors.revision?.message} {...register('revision')} />
      </div>
      <div className="form__grid">
        <TextField label="Effective from" type="date" error={errors.effective_date?.message} {...register('effective_date')} />
        <CheckboxField label="Active" hint="A product's active plan seeds its inspections." {...register('is_active')} />
      </div>
      <TextAreaField label="Notes" rows={2} error={errors.notes?.message} {...register('notes')} />

      <section className="qp-chars" aria-labelledby="qp-chars-title">
        <div className="qp-chars__head">
          <h3 className="section-subtitle" id="qp-chars-title">
            Characteristics
          </h3>
          <Button size="sm" icon={<Plus size={14} />} onClick={() => rows.append({ ...EMPTY_CHARACTERISTIC })} disabled={rows.fields.length >= 100}>
            Add characteristic
          </Button>
        </div>
        {rows.fields.length === 0 ? (
          <EmptyState compact title="No characteristics yet" description="Add what is measured (a wall thickness, a hole diameter) or judged (surface, colour)." />
        ) : (
          <div className="qp-chars__scroll">
            <table className="table table--compact" aria-label="Characteristics">
              <thead>
                <tr>
                  <th scope="col">Code</th>
                  <th scope="col">Characteristic</th>
                  <th scope="col">Type</th>
                  <th scope="col">Nominal</th>
                  <th scope="col">Lower</th>
                  <th scope="col">Upper</th>
                  <th scope="col">Unit</th>
                  <th scope="col">Severity</th>
                  <th scope="col">Checked at</th>
                  <th scope="col">
                    <span className="sr-only">Order and remove</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {rows.fields.map((f, i) => {
                  const e = rowErrors?.[i];
                  const n = i + 1;
                  const attribute = types?.[i]?.characteristic_type === 'attribute';
                  const typeReg = register(`characteristics.${i}.characteristic_type`);
                  return (
                    <tr key={f.id}>
                      <td className="qp-chars__code">
                        <TextField label={`Code of row ${n}`} error={e?.code?.message} {...register(`characteristics.${i}.code`)} />
                      </td>
                      <td>
                        <TextField label={`Characteristic of row ${n}`} placeholder="Wall thickness" error={e?.characteristic?.message} {...register(`characteristics.${i}.characteristic`)} />
                      </td>
                      <td className="qp-chars__type">
                        <SelectField
                          label={`Type of row ${n}`}
                          options={[
                            { value: 'variable', label: 'Variable' },
                            { value: 'attribute', label: 'Attribute' },
                          ]}
                          error={e?.characteristic_type?.message}
                          {...typeReg}
                          onChange={(ev) => {
                            void typeReg.onChange(ev);
                            // An attribute has no limits; a variable no acceptance criteria.
                            if (ev.target.value === 'attribute') for (const k of ['nominal', 'lower_limit', 'upper_limit', 'unit'] as const) setValue(`characteristics.${i}.${k}`, '');
                            else setValue(`characteristics.${i}.acceptance_criteria`, '');
                          }}
                        />
                      </td>
                      {attribute ? (
                        <td colSpan={4}>
                          <TextField
                            label={`Acceptance criteria of row ${n}`}
                            placeholder="No stringing, no visible layer lines"
                            error={e?.acceptance_criteria?.message}
                            {...register(`characteristics.${i}.acceptance_criteria`)}
                          />
                        </td>
                      ) : (
                        <>
                          <td className="qp-chars__num">
                            <TextField label={`Nominal of row ${n}`} inputMode="decimal" error={e?.nominal?.message} {...register(`characteristics.${i}.nominal`)} />
                          </td>
                          <td className="qp-chars__num">
                            <TextField label={`Lower limit of row ${n}`} inputMode="decimal" error={e?.lower_limit?.message} {...register(`characteristics.${i}.lower_limit`)} />
                          </td>
                          <td className="qp-chars__num">
                            <TextField label={`Upper limit of row ${n}`} inputMode="decimal" error={e?.upper_limit?.message} {...register(`characteristics.${i}.upper_limit`)} />
                          </td>
                          <td className="qp-chars__unit">
                            <TextField label={`Unit of row ${n}`} placeholder="mm" error={e?.unit?.message} {...register(`characteristics.${i}.unit`)} />
                          </td>
                        </>
                      )}
                      <td className="qp-chars__sev">
                        <SelectField
                          label={`Severity of row ${n}`}
                          options={SEVERITIES.map((s) => ({ value: s, label: s[0]!.toUpperCase() + s.slice(1) }))}
                          error={e?.severity?.message}
                          {...register(`characteristics.${i}.severity`)}
                        />
                      </td>
                      <td className="qp-chars__step">
                        <SelectField
                          label={`Routing step of row ${n}`}
                          options={steps}
                          placeholder="Final inspection"
                          error={e?.routing_operation_id?.message}
                          {...register(`characteristics.${i}.routing_operation_id`)}
                        />
                      </td>
                      <td className="qp-chars__moves">
                        <Button size="sm" variant="ghost" icon={<ArrowUp size={14} />} aria-label={`Move row ${n} up`} disabled={i === 0} onClick={() => rows.move(i, i - 1)} />
                        <Button
                          size="sm"
                          variant="ghost"
                          icon={<ArrowDown size={14} />}
                          aria-label={`Move row ${n} down`}
                          disabled={i === rows.fields.length - 1}
                          onClick={() => rows.move(i, i + 1)}
                        />
                        <Button size="sm" variant="ghost" icon={<Trash2 size={14} />} aria-label={`Remove row ${n}`} onClick={() => rows.remove(i)} />
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
        {plan && <p className="field__hint">Saving changed characteristics replaces them; inspections already recorded keep their measurements.</p>}
      </section>
    </FormDialog>
  );
}
